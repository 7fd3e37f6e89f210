import { indentWithTab } from '@codemirror/commands'
import { yaml } from '@codemirror/lang-yaml'
import { syntaxHighlighting } from '@codemirror/language'
import { type Diagnostic, lintGutter, setDiagnostics } from '@codemirror/lint'
import { EditorSelection, type Text } from '@codemirror/state'
import { EditorView, keymap } from '@codemirror/view'
import { classHighlighter } from '@lezer/highlight'
import { basicSetup } from 'codemirror'
import type { Marker } from './engine.js'

// The three YAML editors (CodeMirror 6): the policy material, the object, the old object. Tab indents, as in
// any YAML editor; Escape then Tab leaves the editor (CodeMirror's tab focus mode), which the help text under
// the panes says. Colours come from the page's CSS variables (classHighlighter's tok-* classes), so one editor
// theme serves light and dark.

export interface PaneEditor {
  readonly view: EditorView
  text(): string
  setText(text: string): void
}

const theme = EditorView.theme({
  '&': { color: 'var(--fg)', backgroundColor: 'var(--editor-bg)', height: '100%' },
  '.cm-content': { caretColor: 'var(--fg)', fontFamily: 'var(--mono)' },
  '.cm-gutters': {
    backgroundColor: 'var(--editor-gutter)',
    color: 'var(--muted)',
    borderRight: '1px solid var(--line)',
  },
  '.cm-activeLine': { backgroundColor: 'var(--editor-active)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--editor-active)' },
  '&.cm-focused': { outline: '2px solid var(--focus)', outlineOffset: '-2px' },
  '&.cm-focused .cm-cursor': { borderLeftColor: 'var(--fg)' },
  '.cm-selectionBackground, &.cm-focused .cm-selectionBackground': { backgroundColor: 'var(--selection) !important' },
  '.cm-scroller': { overflow: 'auto' },
  '.cm-tooltip': { backgroundColor: 'var(--panel)', color: 'var(--fg)', border: '1px solid var(--line)' },
  '.cm-diagnostic-error': { borderLeftColor: 'var(--bad)' },
  '.cm-diagnostic-warning': { borderLeftColor: 'var(--warn)' },
})

export function createEditor(
  parent: HTMLElement,
  opts: { label: string; describedBy: string; text: string; onChange: () => void },
): PaneEditor {
  const view = new EditorView({
    parent,
    doc: opts.text,
    extensions: [
      basicSetup,
      keymap.of([indentWithTab]),
      yaml(),
      syntaxHighlighting(classHighlighter),
      lintGutter(),
      theme,
      EditorView.contentAttributes.of({ 'aria-label': opts.label, 'aria-describedby': opts.describedBy }),
      EditorView.updateListener.of((u) => {
        if (u.docChanged) opts.onChange()
      }),
    ],
  })
  return {
    view,
    text: () => view.state.doc.toString(),
    setText: (text) => {
      if (text !== view.state.doc.toString())
        view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } })
    },
  }
}

/** The document offset of a 1-based line and column (clamped into the document). */
export function offsetOf(doc: Text, line: number, column: number): number {
  const l = doc.line(Math.min(Math.max(1, Math.floor(line) || 1), doc.lines))
  return Math.min(l.from + Math.max(0, (Math.floor(column) || 1) - 1), l.to)
}

/** Shows the markers of one pane as underlines and gutter marks (replacing the previous ones). */
export function showMarkers(editor: PaneEditor, markers: readonly Marker[]): void {
  const doc = editor.view.state.doc
  const diagnostics: Diagnostic[] = markers.map((m) => {
    const from = offsetOf(doc, m.line, m.column)
    let to = m.endLine !== undefined ? offsetOf(doc, m.endLine, m.endColumn ?? m.column + 1) : from
    // a point marker underlines the rest of its word (at least one character) so that it is seen
    if (to <= from) {
      const line = doc.lineAt(from)
      const rest = /^\S*/.exec(line.text.slice(from - line.from))?.[0].length ?? 0
      to = Math.min(from + Math.max(rest, 1), line.to)
    }
    return { from, to: Math.max(from, to), severity: m.severity, message: m.message }
  })
  editor.view.dispatch(setDiagnostics(editor.view.state, diagnostics))
}

/** Moves the cursor to a marker's position and focuses its editor. */
export function revealMarker(editor: PaneEditor, m: Marker): void {
  const pos = offsetOf(editor.view.state.doc, m.line, m.column)
  editor.view.dispatch({
    selection: EditorSelection.cursor(pos),
    effects: EditorView.scrollIntoView(pos, { y: 'center' }),
  })
  editor.view.focus()
}
