import type { CostRow, Marker, PaneId, PlaygroundResult } from './engine.js'

// The answer of one evaluation written into the results column. Text only (textContent, never HTML): every
// string here comes from what the user typed or from the engine's texts about it.

const PANE_NAMES: Record<PaneId, string> = { material: 'Policy material', object: 'Object', oldObject: 'Old object' }

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  text?: string,
  className?: string,
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag)
  if (text !== undefined) e.textContent = text
  if (className !== undefined) e.className = className
  return e
}

const byId = (id: string): HTMLElement => {
  const e = document.getElementById(id)
  if (!e) throw new Error(`the page has no #${id}`)
  return e
}

/** Shows a section when it has something to say. */
function section(id: string, show: boolean): HTMLElement {
  const s = byId(id)
  s.hidden = !show
  return s
}

/** A cost as read at a glance: grouped digits, or an exponent past a billion (unbounded estimates reach 2^64). */
const costText = (n: number) => (n >= 1e9 ? n.toExponential(2).replace('e+', 'e') : n.toLocaleString('en-US'))

function numCell(n: number | null, text: string = n === null ? '—' : costText(n)): HTMLTableCellElement {
  const td = el('td', text, 'num')
  if (n !== null) td.title = n.toLocaleString('en-US')
  return td
}

/** One cost row: where the expression is (its policy, and its field in small type), the expression, the costs. */
function costRow(row: CostRow): HTMLTableRowElement {
  const tr = el('tr')
  // red when this evaluation went past the limit (an estimate past it is legal: the apiserver admits such policies)
  if (row.actual !== null && row.actual > row.limit) tr.className = 'over'
  const where = el('td', undefined, 'policy')
  const slash = row.policy.indexOf('/')
  where.append(
    el('small', slash < 0 ? '' : row.policy.slice(0, slash + 1), 'kind'),
    el('span', slash < 0 ? row.policy : row.policy.slice(slash + 1)),
    el('small', row.field, 'field'),
  )
  // the expression on one line, cut; its whole text on hover
  const expr = el('td', row.expression, 'expr')
  expr.title = row.expression
  const est = row.estimated
  const estCell = est === null ? numCell(null) : numCell(est[1], `${costText(est[0])} – ${costText(est[1])}`)
  if (est !== null) estCell.title = `${est[0].toLocaleString('en-US')} – ${est[1].toLocaleString('en-US')}`
  tr.append(where, expr, estCell, numCell(row.actual), numCell(row.limit))
  return tr
}

/** Writes `result`; `onMarker` is called when a problem of the list is chosen. */
export function renderResult(
  result: PlaygroundResult,
  onMarker: (m: Marker) => void,
  yamlText: (value: unknown) => string,
): void {
  const verdict = byId('verdict')
  verdict.textContent = result.allowed ? 'Allowed' : 'Denied'
  verdict.className = result.allowed ? 'verdict allowed' : 'verdict denied'
  byId('kubectl').textContent = result.kubectl.join('\n')

  const warnings = result.warnings
  const audit = Object.keys(result.auditAnnotations).sort()
  const w = section('warnings-section', warnings.length > 0 || audit.length > 0)
  const wl = w.querySelector('ul') as HTMLUListElement
  wl.replaceChildren(
    ...warnings.map((t) => el('li', `Warning: ${t}`)),
    ...audit.map((k) => el('li', `Audit annotation ${k}: ${result.auditAnnotations[k]}`)),
  )

  const m = section('mutation-section', result.mutated !== null)
  const diff = m.querySelector('#diff') as HTMLElement
  const patch = m.querySelector('#patch') as HTMLElement
  if (result.mutated) {
    diff.replaceChildren(
      ...result.mutated.diff.split('\n').map((line) => {
        const head = line.startsWith('--- ') || line.startsWith('+++ ') || line.startsWith('@@')
        const kind = head ? 'hunk' : line.startsWith('+') ? 'add' : line.startsWith('-') ? 'del' : 'same'
        return el('span', `${line}\n`, `diff-${kind}`)
      }),
    )
    patch.textContent = JSON.stringify(result.mutated.patch, null, 2)
  } else {
    diff.replaceChildren()
    patch.textContent = ''
  }

  const stored = section('stored-section', result.stored !== null && result.stored !== undefined)
  ;(stored.querySelector('#stored') as HTMLElement).textContent =
    result.stored === null || result.stored === undefined ? '' : yamlText(result.stored)

  const n = section('native-section', result.nativeErrors.length > 0)
  ;(n.querySelector('ul') as HTMLUListElement).replaceChildren(...result.nativeErrors.map((t) => el('li', t)))

  const problems = byId('problems')
  const order = { error: 0, warning: 1, info: 2 } as const
  const panes: PaneId[] = ['material', 'object', 'oldObject']
  const sorted = [...result.markers].sort(
    (a, b) =>
      panes.indexOf(a.pane) - panes.indexOf(b.pane) ||
      a.line - b.line ||
      a.column - b.column ||
      order[a.severity] - order[b.severity],
  )
  byId('problems-count').textContent = String(sorted.length)
  problems.replaceChildren(
    ...(sorted.length === 0
      ? [el('li', 'No compile errors or type-checking warnings.', 'none')]
      : sorted.map((mk) => {
          const b = el('button', undefined, `marker ${mk.severity}`)
          b.type = 'button'
          b.dataset.pane = mk.pane
          b.dataset.line = String(mk.line)
          b.dataset.column = String(mk.column)
          b.append(
            el('span', mk.severity, 'severity'),
            el('span', `${PANE_NAMES[mk.pane]} ${mk.line}:${mk.column}`, 'where'),
            el('span', mk.message, 'message'),
          )
          b.setAttribute(
            'aria-label',
            `${mk.severity} at ${PANE_NAMES[mk.pane]} line ${mk.line} column ${mk.column}: ${mk.message}`,
          )
          b.addEventListener('click', () => onMarker(mk))
          const li = el('li')
          li.append(b)
          return li
        })),
  )

  const c = section('costs-section', result.costs.length > 0)
  const body = c.querySelector('tbody') as HTMLTableSectionElement
  body.replaceChildren(...result.costs.map(costRow))

  const notes = section('notes-section', result.notes.length > 0)
  ;(notes.querySelector('ul') as HTMLUListElement).replaceChildren(...result.notes.map((t) => el('li', t)))
}

/** An evaluation that threw (a kelp bug): said on the page instead of a stale answer. */
export function renderFailure(message: string): void {
  const verdict = byId('verdict')
  verdict.textContent = 'Not evaluated'
  verdict.className = 'verdict failed'
  byId('kubectl').textContent = `kelp could not evaluate this input: ${message}`
  for (const id of [
    'warnings-section',
    'mutation-section',
    'stored-section',
    'native-section',
    'costs-section',
    'notes-section',
  ])
    section(id, false)
}
