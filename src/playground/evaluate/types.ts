// The playground's contract between its engine (src/playground/evaluate, no DOM: Node and the browser) and its
// page (src/playground/app): the state a page edits and shares by URL, and what one evaluation answers.
// pg-engine owns these types; a change to them is a commit of its own that says so.

/** The page's text panes: markers point into one of them. */
export type PaneId = 'material' | 'object' | 'oldObject'

/** Everything a playground link reproduces (the URL's compressed hash: state.ts). */
export interface PlaygroundState {
  v: 1
  /** The target release: '1.37' … any release kelp supports (src/kube/environment.ts). */
  release: string
  /** YAML: VAPs, MAPs, bindings, params, Namespaces, CRDs, … (multi-document). */
  material: string
  /** YAML of the object written. */
  object: string
  /** '' unless UPDATE: the previous revision, applied before `object` (kubectl apply of both in turn). */
  oldObject: string
  operation: 'CREATE' | 'UPDATE' | 'DELETE'
  user: { username: string; groups: string[] }
}

/** A message at a place in a pane: 1-based line and column in the pane's text (columns count UTF-16 units). */
export interface Marker {
  pane: PaneId
  line: number
  column: number
  endLine?: number
  endColumn?: number
  severity: 'error' | 'warning' | 'info'
  message: string
}

/** One CEL expression's cost: its static estimate and what this evaluation cost, against its limit. */
export interface CostRow {
  /** `ValidatingAdmissionPolicy/<name>`, `MutatingAdmissionPolicy/<name>`, `CustomResourceDefinition/<name>`. */
  policy: string
  expression: string
  /** Where the expression is in its object: `spec.validations[0].expression`. */
  field: string
  /**
   * The static estimate [min, max] of one evaluation (cel-go's estimator with Kubernetes' cost tables; an unbounded
   * maximum is 2^64 - 1); a CRD rule's is its compiled maximum, twice (the apiserver holds it × the node's
   * cardinality to 10,000,000); null when the expression does not compile.
   */
  estimated: [number, number] | null
  /** The most one run of it cost in this write (it may run once per binding, param or list item); null when it did not run. */
  actual: number | null
  /** The per-call limit each run is held to (celconfig.PerCallLimit, 1,000,000). */
  limit: number
}

/** A JSON patch operation (RFC 6902). */
export interface PatchOp {
  op: string
  path: string
  value?: unknown
  from?: string
}

export interface PlaygroundResult {
  /** What kubectl prints for the write: Warning: lines, the error, or `<kind>/<name> created (server dry run)`. */
  kubectl: string[]
  allowed: boolean
  warnings: string[]
  /** The audit annotations (key → value; a null-prototype map). */
  auditAnnotations: Record<string, string>
  /** The object as the cluster would store it (`kubectl apply --dry-run=server -o yaml`); null when refused. */
  stored: unknown
  /** The object before and after the mutating policies, their RFC 6902 patch and a unified diff of their YAML. */
  mutated: null | { before: unknown; after: unknown; patch: PatchOp[]; diff: string }
  /** The built-in kind's or CRD's own validation causes, as the apiserver words them. */
  nativeErrors: string[]
  /** Compile errors, type-checking warnings, YAML errors at their position. */
  markers: Marker[]
  costs: CostRow[]
  /** What the page should know: an in-tree admission plugin that did not run, a kind not served, … */
  notes: string[]
}

/**
 * How the built-in kinds' schemas (data/builtin-schemas/, per group-version) are read in a page: `path` is the
 * file's path under the package, `data/builtin-schemas/<file>` (e.g. `data/builtin-schemas/gv/api__v1.json.gz`);
 * the answer is its bytes (gzip, as shipped; already inflated bytes are read too) or a fetch Response. Node reads
 * the files itself when none is given.
 */
export type SchemaSource = (path: string) => Promise<Response | ArrayBuffer | Uint8Array>

export interface EvaluateOptions {
  readonly loadSchemas?: SchemaSource
}
