#!/usr/bin/env bash
# End-to-end on a kind cluster, for a machine with Docker, kind, kubectl and helm (and internet
# access for the base images): build the image, load it into kind, install the chart with a ledger
# PostgreSQL and the simulator as every upstream, apply examples/, make a billed call through the
# gateway, and check that the ledger and the key's status record it. With INSTALL_PROMETHEUS=1 it
# also installs kube-prometheus-stack, enables the chart's PodMonitors, PrometheusRule and
# dashboards, and runs the usage dashboard's first query against Prometheus.
#
# NOT RUN IN CI: the development and CI machines of this project have no Docker engine, so this
# script has not been run there and is not claimed as tested. See README.md beside it.
#
#   test/e2e-kind/run-kind-e2e.sh            # build, create the cluster, install, call, check
#   KEEP_CLUSTER=1 test/e2e-kind/run-kind-e2e.sh   # leave the cluster running afterwards
set -euo pipefail

cd "$(dirname "$0")/../.."
CLUSTER=${CLUSTER:-tollgate-e2e}
IMAGE=${IMAGE:-tollgate:e2e}
NAMESPACE=tollgate-system
SIMULATOR_URL="http://tollgate-simulator.${NAMESPACE}.svc:8090"
work=$(mktemp -d)

log() { printf '\n== %s\n' "$*"; }
cleanup() {
  for pid in $(jobs -p); do kill "$pid" 2>/dev/null || true; done
  rm -rf "$work"
  if [ "${KEEP_CLUSTER:-0}" != 1 ]; then kind delete cluster --name "$CLUSTER" >/dev/null 2>&1 || true; fi
}
trap cleanup EXIT

for tool in docker kind kubectl helm node; do
  command -v "$tool" >/dev/null 2>&1 || { echo "run-kind-e2e: $tool is required" >&2; exit 2; }
done
docker info >/dev/null 2>&1 || { echo "run-kind-e2e: no Docker engine answers" >&2; exit 2; }

log "building $IMAGE"
docker build --build-arg "REVISION=$(git rev-parse HEAD 2>/dev/null || echo unknown)" -t "$IMAGE" .

log "creating the kind cluster $CLUSTER"
kind get clusters | grep -qx "$CLUSTER" || kind create cluster --name "$CLUSTER" --wait 120s
kubectl config use-context "kind-$CLUSTER"
kind load docker-image "$IMAGE" --name "$CLUSTER"

kubectl create namespace "$NAMESPACE" --dry-run=client -o yaml | kubectl apply -f -

log "the simulator (every upstream) and a ledger PostgreSQL"
kubectl -n "$NAMESPACE" apply -f - <<YAML
apiVersion: apps/v1
kind: Deployment
metadata: { name: tollgate-simulator }
spec:
  selector: { matchLabels: { app: tollgate-simulator } }
  template:
    metadata: { labels: { app: tollgate-simulator } }
    spec:
      securityContext: { runAsNonRoot: true, runAsUser: 10001, seccompProfile: { type: RuntimeDefault } }
      containers:
        - name: simulator
          image: $IMAGE
          imagePullPolicy: Never
          args: [simulate, --host, 0.0.0.0, --port, "8090"]
          ports: [{ name: http, containerPort: 8090 }]
          securityContext:
            { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: [ALL] } }
---
apiVersion: v1
kind: Service
metadata: { name: tollgate-simulator }
spec:
  selector: { app: tollgate-simulator }
  ports: [{ name: http, port: 8090, targetPort: http }]
---
apiVersion: apps/v1
kind: Deployment
metadata: { name: ledger-postgres }
spec:
  selector: { matchLabels: { app: ledger-postgres } }
  template:
    metadata: { labels: { app: ledger-postgres } }
    spec:
      containers:
        - name: postgres
          image: docker.io/library/postgres:17-alpine
          env:
            - { name: POSTGRES_USER, value: tollgate }
            - { name: POSTGRES_PASSWORD, value: e2e-only-password }
            - { name: POSTGRES_DB, value: tollgate }
          ports: [{ name: postgres, containerPort: 5432 }]
          readinessProbe: { exec: { command: [pg_isready, -U, tollgate] }, periodSeconds: 3 }
---
apiVersion: v1
kind: Service
metadata: { name: ledger-postgres }
spec:
  selector: { app: ledger-postgres }
  ports: [{ name: postgres, port: 5432, targetPort: postgres }]
YAML
kubectl -n "$NAMESPACE" rollout status deployment/ledger-postgres --timeout=180s
kubectl -n "$NAMESPACE" rollout status deployment/tollgate-simulator --timeout=120s

monitoring_values=()
if [ "${INSTALL_PROMETHEUS:-0}" = 1 ]; then
  log "kube-prometheus-stack (Prometheus, Grafana, the operator's CRDs)"
  helm repo add prometheus-community https://prometheus-community.github.io/helm-charts >/dev/null
  helm repo update >/dev/null
  helm upgrade --install monitoring prometheus-community/kube-prometheus-stack \
    --namespace monitoring --create-namespace --wait --timeout 10m \
    --set prometheus.prometheusSpec.podMonitorSelectorNilUsesHelmValues=false \
    --set prometheus.prometheusSpec.ruleSelectorNilUsesHelmValues=false
  monitoring_values=(--set monitoring.podMonitors.enabled=true
    --set monitoring.prometheusRule.enabled=true --set monitoring.dashboards.enabled=true)
fi

log "installing the chart"
helm upgrade --install tollgate charts/tollgate --namespace "$NAMESPACE" --wait --timeout 10m \
  --set image.repository="${IMAGE%%:*}" --set image.tag="${IMAGE##*:}" --set image.pullPolicy=Never \
  --set postgresql.url="postgres://tollgate:e2e-only-password@ledger-postgres.${NAMESPACE}.svc:5432/tollgate" \
  --set gateway.autoscaling.minReplicas=2 --set operator.usageRefreshSeconds=5 \
  --set 'networkPolicy.upstreams.ports={443,8090}' \
  --set 'networkPolicy.postgresql.ports={5432}' \
  "${monitoring_values[@]}"

log "applying examples/ (upstreams pointed at the simulator)"
for file in examples/*.yaml; do
  sed "s#http://127.0.0.1:8090#${SIMULATOR_URL}#g" "$file" | kubectl apply -f -
done
kubectl -n team-a wait apikey/alice --for=condition=Ready --timeout=120s
key=$(kubectl -n team-a get secret alice-key -o jsonpath='{.data.apiKey}' | base64 -d)

log "a billed call through the gateway"
kubectl -n "$NAMESPACE" port-forward svc/tollgate-gateway 18080:80 >"$work/port-forward.log" 2>&1 &
for _ in $(seq 50); do curl -fsS http://127.0.0.1:18080/healthz >/dev/null 2>&1 && break; sleep 0.2; done
status=$(curl -sS -o "$work/reply.json" -w '%{http_code}' http://127.0.0.1:18080/v1/messages \
  -H "x-api-key: $key" -H 'content-type: application/json' -H 'anthropic-version: 2023-06-01' \
  -d '{"model":"claude-sonnet-4-5","max_tokens":64,"messages":[{"role":"user","content":"Hello"}]}')
cat "$work/reply.json"; echo
[ "$status" = 200 ] || { echo "run-kind-e2e: the call answered $status" >&2; exit 1; }

log "the call is billed: key status and ledger"
for _ in $(seq 60); do
  used=$(kubectl -n team-a get apikey alice -o jsonpath='{.status.usage.usedUSD}')
  [ -n "$used" ] && [ "$used" != 0 ] && break
  sleep 2
done
echo "alice usedUSD: ${used:-none}"
[ -n "$used" ] && [ "$used" != 0 ] || { echo "run-kind-e2e: no usage in the key's status" >&2; exit 1; }
records=""
for _ in $(seq 30); do
  records=$(kubectl -n "$NAMESPACE" exec deploy/ledger-postgres -- psql -U tollgate -d tollgate -tAc \
    "select count(*) from usage_records where namespace = 'team-a'" 2>/dev/null || true)
  [ "${records:-0}" -ge 1 ] 2>/dev/null && break
  sleep 2
done
echo "ledger records for team-a: ${records:-0}"
[ "${records:-0}" -ge 1 ] || { echo "run-kind-e2e: the recorder wrote no ledger record" >&2; exit 1; }

if [ "${INSTALL_PROMETHEUS:-0}" = 1 ]; then
  log "a dashboard query through Prometheus"
  query=$(node -e '
    const dashboard = JSON.parse(require("fs").readFileSync("charts/tollgate/dashboards/tollgate-usage.json", "utf8"));
    const panels = (dashboard.panels ?? []).flatMap((panel) => [panel, ...(panel.panels ?? [])]);
    const target = panels.flatMap((panel) => panel.targets ?? []).find((each) => each.expr);
    process.stdout.write(target.expr.replaceAll("$__rate_interval", "5m").replaceAll("$__range", "1h")
      .replace(/\$\w+/g, ".*"));')
  kubectl -n monitoring port-forward svc/monitoring-kube-prometheus-prometheus 19090:9090 \
    >"$work/prometheus.log" 2>&1 &
  for _ in $(seq 90); do
    answer=$(curl -fsS --get http://127.0.0.1:19090/api/v1/query --data-urlencode "query=$query" || true)
    echo "$answer" | grep -q '"result":\[{' && break
    sleep 5
  done
  echo "query: $query"
  echo "answer: $answer"
  echo "$answer" | grep -q '"result":\[{' || { echo "run-kind-e2e: the dashboard query returned no data" >&2; exit 1; }
fi

log "passed"
