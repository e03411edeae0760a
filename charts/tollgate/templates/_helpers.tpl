{{/*
Shared naming and labelling helpers. Every component template and the monitoring
templates build their names and selectors from these.
*/}}

{{- define "tollgate.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Fully qualified release name, at most 63 characters. Component objects append
"-<component>" to it, so it is truncated to leave room for the longest suffix.
*/}}
{{- define "tollgate.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 50 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 50 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 50 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "tollgate.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Labels carried by every object of the release. */}}
{{- define "tollgate.labels" -}}
helm.sh/chart: {{ include "tollgate.chart" . }}
{{ include "tollgate.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: tollgate
{{- end }}

{{/* Labels that select every pod of the release. */}}
{{- define "tollgate.selectorLabels" -}}
app.kubernetes.io/name: {{ include "tollgate.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/*
Labels that select one component's pods.
Usage: include "tollgate.componentSelectorLabels" (dict "root" $ "component" "gateway")
*/}}
{{- define "tollgate.componentSelectorLabels" -}}
{{ include "tollgate.selectorLabels" .root }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{/*
All labels of one component's objects.
Usage: include "tollgate.componentLabels" (dict "root" $ "component" "gateway")
*/}}
{{- define "tollgate.componentLabels" -}}
{{ include "tollgate.labels" .root }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{/*
Name of one component's objects.
Usage: include "tollgate.componentName" (dict "root" $ "component" "gateway")
*/}}
{{- define "tollgate.componentName" -}}
{{- printf "%s-%s" (include "tollgate.fullname" .root) .component | trunc 63 | trimSuffix "-" }}
{{- end }}
