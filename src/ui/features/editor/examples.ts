// Starting points for the editor's buffer.

export const EXAMPLES: ReadonlyArray<{ readonly name: string; readonly text: string }> = [
  {
    name: 'ConfigMap',
    text: `apiVersion: v1
kind: ConfigMap
metadata:
  name: example
  namespace: default
data:
  greeting: hello
`,
  },
  {
    name: 'Deployment and Service',
    text: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
  labels:
    app: web
spec:
  replicas: 2
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: web
        image: nginx:1.27
        ports:
        - containerPort: 80
---
apiVersion: v1
kind: Service
metadata:
  name: web
  namespace: default
spec:
  selector:
    app: web
  ports:
  - port: 80
    targetPort: 80
`,
  },
  {
    name: 'Namespace, Role and RoleBinding',
    text: `apiVersion: v1
kind: Namespace
metadata:
  name: team-a
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: config-reader
  namespace: team-a
rules:
- apiGroups: [""]
  resources: ["configmaps"]
  verbs: ["get", "list", "watch"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: config-reader
  namespace: team-a
subjects:
- kind: User
  name: jane
  apiGroup: rbac.authorization.k8s.io
roleRef:
  kind: Role
  name: config-reader
  apiGroup: rbac.authorization.k8s.io
`,
  },
];
