import { createEditor, type PaneEditor, revealMarker, showMarkers } from './editors.js'
import type { Marker, PaneId, PlaygroundState } from './engine.js'
import { renderFailure, renderResult } from './results.js'
import { initTheme } from './theme.js'

// The playground page: the first chunk (the page and its editors). The engine is a separate chunk, imported at
// once but not waited for to draw the page; every evaluation runs here, in the page: nothing is sent anywhere.
// The whole state lives in the URL's fragment (encodeState), rewritten as one types (replaceState), so a link
// reproduces a case; the fragment never reaches a server.

const engine = import('./engine.js')
/** How long typing must pause before an evaluation (ms). */
const DEBOUNCE_MS = 150

const byId = <T extends HTMLElement>(id: string): T => {
  const e = document.getElementById(id)
  if (!e) throw new Error(`the page has no #${id}`)
  return e as T
}

const release = byId<HTMLSelectElement>('release')
const operation = byId<HTMLSelectElement>('operation')
const username = byId<HTMLInputElement>('username')
const groups = byId<HTMLInputElement>('groups')
const exampleSelect = byId<HTMLSelectElement>('example')
const status = byId('status')
const notice = byId('notice')
const oldPane = byId('pane-oldObject')

const editors = {} as Record<PaneId, PaneEditor>
/** While a whole state is put into the panes: their changes are not keystrokes (the caller evaluates once). */
let showing = false
for (const [pane, label] of [
  ['material', 'Policy material (YAML)'],
  ['object', 'Object (YAML)'],
  ['oldObject', 'Old object (YAML)'],
] as const) {
  editors[pane] = createEditor(byId(`editor-${pane}`), {
    label,
    describedBy: 'editor-help',
    text: '',
    onChange: () => {
      if (!showing) schedule()
    },
  })
}

function currentState(): PlaygroundState {
  return {
    v: 1,
    release: release.value,
    material: editors.material.text(),
    object: editors.object.text(),
    oldObject: editors.oldObject.text(),
    operation: operation.value as PlaygroundState['operation'],
    user: {
      username: username.value,
      groups: groups.value
        .split(',')
        .map((g) => g.trim())
        .filter((g) => g !== ''),
    },
  }
}

function showState(s: PlaygroundState): void {
  if (![...release.options].some((o) => o.value === s.release)) release.append(new Option(s.release, s.release))
  release.value = s.release
  operation.value = s.operation
  username.value = s.user.username
  groups.value = s.user.groups.join(', ')
  showing = true
  try {
    for (const pane of ['material', 'object', 'oldObject'] as const) editors[pane].setText(s[pane])
  } finally {
    showing = false
  }
  syncOldPane()
}

/** A message that stays until the next state is loaded (a link that is not a state). */
function say(message: string | undefined): void {
  notice.hidden = message === undefined
  notice.textContent = message ?? ''
}

/** The old object matters to an UPDATE only (the apiserver's oldObject). */
function syncOldPane(): void {
  oldPane.hidden = operation.value !== 'UPDATE'
}

/** The engine's SchemaSource: `data/builtin-schemas/<file>` is the build's `builtin-schemas/<file>`, fetched
 * beside the page (relative: the page may live under any path); nothing else is fetched. */
function loadSchemas(path: string): Promise<Response> {
  const m = /^data\/(builtin-schemas\/[A-Za-z0-9_.-]+(?:\/[A-Za-z0-9_.-]+)*)$/.exec(path)
  if (!m || m[1]?.split('/').some((s) => s === '..' || s === '.'))
    return Promise.reject(new Error(`not a built-in schema file: ${path}`))
  return fetch(new URL(m[1] as string, location.href))
}

let timer: ReturnType<typeof setTimeout> | undefined
let generation = 0

function schedule(): void {
  if (timer !== undefined) clearTimeout(timer)
  timer = setTimeout(() => {
    timer = undefined
    void evaluate()
  }, DEBOUNCE_MS)
}

function onMarker(m: Marker): void {
  if (m.pane === 'oldObject' && oldPane.hidden) return
  revealMarker(editors[m.pane], m)
}

async function evaluate(): Promise<void> {
  const mine = ++generation
  const state = currentState()
  const { evaluatePlayground, encodeState, yamlText } = await engine
  const started = performance.now()
  try {
    const result = await evaluatePlayground(state, { loadSchemas })
    // a later keystroke's evaluation has started: this answer is stale
    if (mine !== generation) return
    const ms = performance.now() - started
    renderResult(result, onMarker, yamlText)
    for (const pane of ['material', 'object', 'oldObject'] as const)
      showMarkers(
        editors[pane],
        result.markers.filter((m) => m.pane === pane),
      )
    status.textContent = `Evaluated in ${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms`
  } catch (e) {
    if (mine !== generation) return
    renderFailure(e instanceof Error ? e.message : String(e))
    status.textContent = 'Evaluation failed'
  }
  try {
    const hash = `#${await encodeState(state)}`
    if (mine !== generation) return
    if (location.hash !== hash) history.replaceState(null, '', hash)
  } catch (e) {
    status.textContent = `The link could not be updated: ${e instanceof Error ? e.message : String(e)}`
  }
  // the answer is shown and the link holds its state (what the browser tests wait for)
  document.body.dataset.evaluations = String(mine)
}

/** The state the page starts from: the URL's, else the first example. */
async function initialState(): Promise<PlaygroundState> {
  const { decodeState, examples } = await engine
  const fragment = location.hash.slice(1)
  if (fragment !== '') {
    try {
      return await decodeState(fragment)
    } catch (e) {
      say(
        `This link's case could not be read (${e instanceof Error ? e.message : String(e)}); showing the first example.`,
      )
    }
  }
  const first = examples[0]
  if (!first) throw new Error('no examples')
  return first.state
}

async function start(): Promise<void> {
  initTheme(byId<HTMLButtonElement>('theme'))
  for (const control of [release, operation]) control.addEventListener('change', schedule)
  operation.addEventListener('change', syncOldPane)
  for (const control of [username, groups]) control.addEventListener('input', schedule)
  byId<HTMLButtonElement>('copy-link').addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(location.href)
      status.textContent = 'Link copied'
    } catch {
      status.textContent = 'Copy the address bar: it holds the whole case'
    }
  })
  status.textContent = 'Loading the engine…'
  let mod: Awaited<typeof engine>
  try {
    mod = await engine
  } catch (e) {
    status.textContent = ''
    say(`The engine could not be loaded (${e instanceof Error ? e.message : String(e)}): reload the page.`)
    return
  }
  release.replaceChildren(...mod.SUPPORTED_VERSIONS.map((v) => new Option(v, v)))
  exampleSelect.replaceChildren(...mod.examples.map((ex, i) => new Option(ex.name, String(i))))
  byId<HTMLButtonElement>('load-example').addEventListener('click', () => {
    const ex = mod.examples[Number(exampleSelect.value)]
    if (!ex) return
    say(undefined)
    showState(ex.state)
    void evaluate()
  })
  window.addEventListener('hashchange', async () => {
    try {
      const s = await mod.decodeState(location.hash.slice(1))
      say(undefined)
      showState(s)
      void evaluate()
    } catch (e) {
      say(`This link's case could not be read (${e instanceof Error ? e.message : String(e)}).`)
    }
  })
  const initial = await initialState()
  showState(initial)
  // the menu names the example a link holds, when it holds one as it is
  const same = mod.examples.findIndex((ex) =>
    (['material', 'object', 'oldObject', 'operation', 'release'] as const).every((k) => ex.state[k] === initial[k]),
  )
  if (same >= 0) exampleSelect.value = String(same)
  await evaluate()
  if ('serviceWorker' in navigator && (location.protocol === 'https:' || location.protocol === 'http:')) {
    // offline once loaded: the worker keeps the page's own files (sw.ts)
    navigator.serviceWorker.register('./sw.js').catch(() => undefined)
  }
}

void start()
