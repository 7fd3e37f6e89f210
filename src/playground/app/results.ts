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

const costText = (n: number) => n.toLocaleString('en-US')

function costCells(row: CostRow): string[] {
  const est = row.estimated === null ? '—' : `${costText(row.estimated[0])} – ${costText(row.estimated[1])}`
  return [
    row.policy,
    row.field,
    row.expression,
    est,
    row.actual === null ? '—' : costText(row.actual),
    costText(row.limit),
  ]
}

/** Writes `result`; `onMarker` is called when a problem of the list is chosen. */
export function renderResult(result: PlaygroundResult, onMarker: (m: Marker) => void): void {
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
        const kind = line.startsWith('+') ? 'add' : line.startsWith('-') ? 'del' : line.startsWith('@@') ? 'hunk' : ''
        return el('span', `${line}\n`, kind ? `diff-${kind}` : undefined)
      }),
    )
    patch.textContent = JSON.stringify(result.mutated.patch, null, 2)
  } else {
    diff.replaceChildren()
    patch.textContent = ''
  }

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
  body.replaceChildren(
    ...result.costs.map((row) => {
      const tr = el('tr')
      const over = (row.actual ?? 0) > row.limit || (row.estimated !== null && row.estimated[1] > row.limit)
      if (over) tr.className = 'over'
      for (const [i, t] of costCells(row).entries()) {
        const td = el('td', t)
        if (i === 0) td.className = 'policy'
        // the expression on one line, cut; its whole text on hover and for screen readers
        if (i === 2) {
          td.className = 'expr'
          td.title = t
        }
        if (i >= 3) td.className = 'num'
        tr.append(td)
      }
      return tr
    }),
  )

  const notes = section('notes-section', result.notes.length > 0)
  ;(notes.querySelector('ul') as HTMLUListElement).replaceChildren(...result.notes.map((t) => el('li', t)))
}

/** An evaluation that threw (a kelp bug): said on the page instead of a stale answer. */
export function renderFailure(message: string): void {
  const verdict = byId('verdict')
  verdict.textContent = 'Not evaluated'
  verdict.className = 'verdict failed'
  byId('kubectl').textContent = `kelp could not evaluate this input: ${message}`
  for (const id of ['warnings-section', 'mutation-section', 'native-section', 'costs-section', 'notes-section'])
    section(id, false)
}
