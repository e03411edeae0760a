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
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
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

{{/* The image reference: repository@digest, else repository:tag (tag defaults to appVersion). */}}
{{- define "tollgate.image" -}}
{{- if .Values.image.digest -}}
{{ .Values.image.repository }}@{{ .Values.image.digest }}
{{- else -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}
{{- end }}

{{/*
ServiceAccount name of one component.
Usage: include "tollgate.serviceAccountName" (dict "root" $ "component" "gateway")
*/}}
{{- define "tollgate.serviceAccountName" -}}
{{- $values := index .root.Values .component -}}
{{- if $values.serviceAccount.create -}}
{{ default (include "tollgate.componentName" .) $values.serviceAccount.name }}
{{- else -}}
{{ default "default" $values.serviceAccount.name }}
{{- end -}}
{{- end }}

{{/* Secret names. */}}
{{- define "tollgate.keysSecretName" -}}
{{ include "tollgate.fullname" . }}-keys
{{- end }}

{{- define "tollgate.pepperSecretName" -}}
{{ default (include "tollgate.keysSecretName" .) .Values.secrets.pepper.existingSecret }}
{{- end }}

{{- define "tollgate.pepperSecretKey" -}}
{{ ternary .Values.secrets.pepper.existingSecretKey "pepper" (ne .Values.secrets.pepper.existingSecret "") }}
{{- end }}

{{- define "tollgate.credentialKeySecretName" -}}
{{ default (include "tollgate.keysSecretName" .) .Values.secrets.credentialKey.existingSecret }}
{{- end }}

{{- define "tollgate.credentialKeySecretKey" -}}
{{ ternary .Values.secrets.credentialKey.existingSecretKey "credential-key" (ne .Values.secrets.credentialKey.existingSecret "") }}
{{- end }}

{{/* Whether the bundled Redis runs (templates/validate-values.yaml refuses it beside an external one). */}}
{{- define "tollgate.redis.bundled" -}}
{{- if .Values.redis.bundled.enabled -}}
true
{{- end -}}
{{- end }}

{{- define "tollgate.redis.bundledName" -}}
{{ include "tollgate.componentName" (dict "root" . "component" "redis") }}
{{- end }}

{{/* The Secret and key holding the Redis URL every component reads. */}}
{{- define "tollgate.redis.urlSecretName" -}}
{{- if .Values.redis.existingSecret -}}
{{ .Values.redis.existingSecret }}
{{- else -}}
{{ include "tollgate.fullname" . }}-redis-url
{{- end -}}
{{- end }}

{{- define "tollgate.redis.urlSecretKey" -}}
{{ ternary .Values.redis.existingSecretKey "url" (ne .Values.redis.existingSecret "") }}
{{- end }}

{{/* Whether a ledger is configured, so that the recorder runs and the console reads usage. */}}
{{- define "tollgate.ledger.enabled" -}}
{{- if or .Values.postgresql.url .Values.postgresql.existingSecret -}}
true
{{- end -}}
{{- end }}

{{- define "tollgate.postgresql.secretName" -}}
{{- if .Values.postgresql.existingSecret -}}
{{ .Values.postgresql.existingSecret }}
{{- else -}}
{{ include "tollgate.fullname" . }}-postgresql-url
{{- end -}}
{{- end }}

{{- define "tollgate.postgresql.secretKey" -}}
{{ ternary .Values.postgresql.existingSecretKey "url" (ne .Values.postgresql.existingSecret "") }}
{{- end }}

{{/* Environment shared by the components that use Redis. */}}
{{- define "tollgate.redisEnv" -}}
- name: REDIS_URL
  valueFrom:
    secretKeyRef:
      name: {{ include "tollgate.redis.urlSecretName" . }}
      key: {{ include "tollgate.redis.urlSecretKey" . }}
{{- end }}

{{/* Volumes and mounts of the pepper and the credential key (gateway, operator). */}}
{{- define "tollgate.keyVolumes" -}}
- name: pepper
  secret:
    secretName: {{ include "tollgate.pepperSecretName" . }}
    defaultMode: 0400
    items:
      - key: {{ include "tollgate.pepperSecretKey" . }}
        path: pepper
- name: credential-key
  secret:
    secretName: {{ include "tollgate.credentialKeySecretName" . }}
    defaultMode: 0400
    items:
      - key: {{ include "tollgate.credentialKeySecretKey" . }}
        path: credential-key
{{- end }}

{{- define "tollgate.keyMounts" -}}
- name: pepper
  mountPath: /etc/tollgate/pepper
  readOnly: true
- name: credential-key
  mountPath: /etc/tollgate/credential-key
  readOnly: true
{{- end }}

{{- define "tollgate.keyEnv" -}}
- name: TOLLGATE_PEPPER_FILE
  value: /etc/tollgate/pepper/pepper
- name: TOLLGATE_CREDENTIAL_KEY_FILE
  value: /etc/tollgate/credential-key/credential-key
{{- end }}

{{/* The writable /tmp every Tollgate container gets (the root filesystem is read-only). */}}
{{- define "tollgate.tmpVolume" -}}
- name: tmp
  emptyDir:
    sizeLimit: 64Mi
{{- end }}

{{- define "tollgate.tmpMount" -}}
- name: tmp
  mountPath: /tmp
{{- end }}

{{/*
Pod-level fields every component shares: pull secrets, security context, scheduling.
Usage: include "tollgate.podCommon" (dict "root" $ "component" "gateway")
*/}}
{{- define "tollgate.podCommon" -}}
{{- $values := index .root.Values .component -}}
serviceAccountName: {{ include "tollgate.serviceAccountName" . }}
automountServiceAccountToken: {{ has .component (list "operator" "console") }}
enableServiceLinks: false
{{- with .root.Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
securityContext:
  {{- toYaml .root.Values.podSecurityContext | nindent 2 }}
{{- with $values.priorityClassName }}
priorityClassName: {{ . }}
{{- end }}
{{- with $values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $values.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end }}

{{/* Pod template metadata of one component. */}}
{{- define "tollgate.podMetadata" -}}
{{- $values := index .root.Values .component -}}
labels:
  {{- include "tollgate.componentLabels" . | nindent 2 }}
  {{- with $values.podLabels }}
  {{- toYaml . | nindent 2 }}
  {{- end }}
{{- with $values.podAnnotations }}
annotations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end }}

{{/* The Tollgate container's image, pull policy and security context. */}}
{{- define "tollgate.containerCommon" -}}
image: {{ include "tollgate.image" . }}
imagePullPolicy: {{ .Values.image.pullPolicy }}
securityContext:
  {{- toYaml .Values.containerSecurityContext | nindent 2 }}
{{- end }}

{{/*
The console's public origins, comma-separated: console.publicOrigins, else the Ingress hosts
(https for a host its tls covers), else the HTTPRoute hostnames (https unless httpRoute.tls is
false), else the port-forward address that NOTES.txt gives.
*/}}
{{- define "tollgate.console.publicOrigins" -}}
{{- $values := .Values.console -}}
{{- $origins := list -}}
{{- if $values.publicOrigins -}}
{{- $origins = $values.publicOrigins -}}
{{- else if $values.ingress.enabled -}}
{{- $tlsHosts := list -}}
{{- $tlsAll := false -}}
{{- range $values.ingress.tls -}}
{{- if .hosts }}{{ $tlsHosts = concat $tlsHosts .hosts }}{{ else }}{{ $tlsAll = true }}{{ end -}}
{{- end -}}
{{- range $values.ingress.hosts -}}
{{- $https := or $tlsAll (has .host $tlsHosts) -}}
{{- $origins = append $origins (printf "%s://%s" (ternary "https" "http" $https) .host) -}}
{{- end -}}
{{- else if $values.httpRoute.enabled -}}
{{- if not $values.httpRoute.hostnames -}}
{{- fail "console.httpRoute: without hostnames, set console.publicOrigins to the address people open" -}}
{{- end -}}
{{- range $values.httpRoute.hostnames -}}
{{- $origins = append $origins (printf "%s://%s" (ternary "https" "http" $values.httpRoute.tls) .) -}}
{{- end -}}
{{- else -}}
{{- $origins = list "http://127.0.0.1:8084" "http://localhost:8084" -}}
{{- end -}}
{{- join "," $origins -}}
{{- end -}}

{{/*
The console's cookieSecure: auto becomes true when every public origin is https (TLS ends at the
Ingress or the Gateway, so the console itself sees plain http).
*/}}
{{- define "tollgate.console.cookieSecure" -}}
{{- $setting := .Values.console.cookieSecure | toString -}}
{{- if ne $setting "auto" -}}
{{- $setting -}}
{{- else -}}
{{- $https := true -}}
{{- range splitList "," (include "tollgate.console.publicOrigins" .) -}}
{{- if not (hasPrefix "https://" .) }}{{ $https = false }}{{ end -}}
{{- end -}}
{{- ternary "true" "auto" $https -}}
{{- end -}}
{{- end -}}
