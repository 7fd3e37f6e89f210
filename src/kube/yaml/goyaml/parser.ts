import type { Scanner } from './scanner.js'
import { copyMark, Ev, type Event, type EventType, type Mark, Tok, type Token, type TokenType } from './types.js'

// go-yaml v2's parser (parserc.go): its state machine, turning the scanner's tokens into events, with its
// stack of states and of collection start marks (no recursion: a document nested 10000 deep is a stack
// 10000 long). An event carries only its type and anchor; the parser's errors are go-yaml's words and marks.

/** yaml_parser_state_t */
const S = {
  STREAM_START: 0,
  IMPLICIT_DOCUMENT_START: 1,
  DOCUMENT_START: 2,
  DOCUMENT_CONTENT: 3,
  DOCUMENT_END: 4,
  BLOCK_NODE: 5,
  BLOCK_NODE_OR_INDENTLESS_SEQUENCE: 6,
  FLOW_NODE: 7,
  BLOCK_SEQUENCE_FIRST_ENTRY: 8,
  BLOCK_SEQUENCE_ENTRY: 9,
  INDENTLESS_SEQUENCE_ENTRY: 10,
  BLOCK_MAPPING_FIRST_KEY: 11,
  BLOCK_MAPPING_KEY: 12,
  BLOCK_MAPPING_VALUE: 13,
  FLOW_SEQUENCE_FIRST_ENTRY: 14,
  FLOW_SEQUENCE_ENTRY: 15,
  FLOW_SEQUENCE_ENTRY_MAPPING_KEY: 16,
  FLOW_SEQUENCE_ENTRY_MAPPING_VALUE: 17,
  FLOW_SEQUENCE_ENTRY_MAPPING_END: 18,
  FLOW_MAPPING_FIRST_KEY: 19,
  FLOW_MAPPING_KEY: 20,
  FLOW_MAPPING_VALUE: 21,
  FLOW_MAPPING_EMPTY_VALUE: 22,
  END: 23,
} as const
type State = (typeof S)[keyof typeof S]

/** The events without an anchor, shared. */
const EVENTS = new Map<EventType, Event>(Object.values(Ev).map((type) => [type, { type }]))
const event = (type: EventType, anchor?: string): Event =>
  anchor === undefined ? (EVENTS.get(type) as Event) : { type, anchor }
const emptyScalar = (): Event => event(Ev.SCALAR)

export class Parser {
  private state: State = S.STREAM_START
  private states: State[] = []
  private marks: Mark[] = []
  /** The %TAG handles in force (the document's and the defaults). */
  private tagDirectives = new Set<string>()

  constructor(private readonly s: Scanner) {}

  /** yaml_parser_parse: the next event, or undefined on an error (the scanner's `problem`). */
  parse(): Event | undefined {
    if (this.s.streamEndProduced || this.s.problem !== undefined || this.state === S.END) return event(Ev.NO_EVENT)
    return this.stateMachine()
  }

  /** yaml_parser_state_machine */
  private stateMachine(): Event | undefined {
    switch (this.state) {
      case S.STREAM_START:
        return this.parseStreamStart()
      case S.IMPLICIT_DOCUMENT_START:
        return this.parseDocumentStart(true)
      case S.DOCUMENT_START:
        return this.parseDocumentStart(false)
      case S.DOCUMENT_CONTENT:
        return this.parseDocumentContent()
      case S.DOCUMENT_END:
        return this.parseDocumentEnd()
      case S.BLOCK_NODE:
        return this.parseNode(true, false)
      case S.BLOCK_NODE_OR_INDENTLESS_SEQUENCE:
        return this.parseNode(true, true)
      case S.FLOW_NODE:
        return this.parseNode(false, false)
      case S.BLOCK_SEQUENCE_FIRST_ENTRY:
        return this.parseBlockSequenceEntry(true)
      case S.BLOCK_SEQUENCE_ENTRY:
        return this.parseBlockSequenceEntry(false)
      case S.INDENTLESS_SEQUENCE_ENTRY:
        return this.parseIndentlessSequenceEntry()
      case S.BLOCK_MAPPING_FIRST_KEY:
        return this.parseBlockMappingKey(true)
      case S.BLOCK_MAPPING_KEY:
        return this.parseBlockMappingKey(false)
      case S.BLOCK_MAPPING_VALUE:
        return this.parseBlockMappingValue()
      case S.FLOW_SEQUENCE_FIRST_ENTRY:
        return this.parseFlowSequenceEntry(true)
      case S.FLOW_SEQUENCE_ENTRY:
        return this.parseFlowSequenceEntry(false)
      case S.FLOW_SEQUENCE_ENTRY_MAPPING_KEY:
        return this.parseFlowSequenceEntryMappingKey()
      case S.FLOW_SEQUENCE_ENTRY_MAPPING_VALUE:
        return this.parseFlowSequenceEntryMappingValue()
      case S.FLOW_SEQUENCE_ENTRY_MAPPING_END:
        return this.parseFlowSequenceEntryMappingEnd()
      case S.FLOW_MAPPING_FIRST_KEY:
        return this.parseFlowMappingKey(true)
      case S.FLOW_MAPPING_KEY:
        return this.parseFlowMappingKey(false)
      case S.FLOW_MAPPING_VALUE:
        return this.parseFlowMappingValue(false)
      case S.FLOW_MAPPING_EMPTY_VALUE:
        return this.parseFlowMappingValue(true)
      default:
        return event(Ev.NO_EVENT)
    }
  }

  /** yaml_parser_set_parser_error */
  private error(problem: string, problemMark: Mark): undefined {
    this.s.problem = {
      kind: 'parser',
      problem,
      problemMark,
      context: '',
      contextMark: { index: 0, line: 0, column: 0 },
    }
    return undefined
  }

  /** yaml_parser_set_parser_error_context */
  private errorContext(context: string, contextMark: Mark, problem: string, problemMark: Mark): undefined {
    this.s.problem = { kind: 'parser', problem, problemMark, context, contextMark }
    return undefined
  }

  private popState(): void {
    this.state = this.states.pop() as State
  }

  private peek(): Token | undefined {
    return this.s.peekToken()
  }

  private skip(): void {
    this.s.skipToken()
  }

  /** stream ::= STREAM-START implicit_document? explicit_document* STREAM-END (its start) */
  private parseStreamStart(): Event | undefined {
    const token = this.peek()
    if (token === undefined) return undefined
    if (token.type !== Tok.STREAM_START) return this.error('did not find expected <stream-start>', token.start)
    this.state = S.IMPLICIT_DOCUMENT_START
    this.skip()
    return event(Ev.STREAM_START)
  }

  /** yaml_parser_parse_document_start: an implicit document, an explicit one (`---`), or the stream's end. */
  private parseDocumentStart(implicit: boolean): Event | undefined {
    let token = this.peek()
    if (token === undefined) return undefined
    // extra document end indicators
    if (!implicit) {
      while (token.type === Tok.DOCUMENT_END) {
        this.skip()
        token = this.peek()
        if (token === undefined) return undefined
      }
    }
    if (
      implicit &&
      token.type !== Tok.VERSION_DIRECTIVE &&
      token.type !== Tok.TAG_DIRECTIVE &&
      token.type !== Tok.DOCUMENT_START &&
      token.type !== Tok.STREAM_END
    ) {
      if (!this.processDirectives()) return undefined
      this.states.push(S.DOCUMENT_END)
      this.state = S.BLOCK_NODE
      return event(Ev.DOCUMENT_START)
    }
    if (token.type !== Tok.STREAM_END) {
      if (!this.processDirectives()) return undefined
      token = this.peek()
      if (token === undefined) return undefined
      if (token.type !== Tok.DOCUMENT_START) return this.error('did not find expected <document start>', token.start)
      this.states.push(S.DOCUMENT_END)
      this.state = S.DOCUMENT_CONTENT
      this.skip()
      return event(Ev.DOCUMENT_START)
    }
    this.state = S.END
    this.skip()
    return event(Ev.STREAM_END)
  }

  /** yaml_parser_parse_document_content: an explicit document's node, or an empty one. */
  private parseDocumentContent(): Event | undefined {
    const token = this.peek()
    if (token === undefined) return undefined
    if (
      token.type === Tok.VERSION_DIRECTIVE ||
      token.type === Tok.TAG_DIRECTIVE ||
      token.type === Tok.DOCUMENT_START ||
      token.type === Tok.DOCUMENT_END ||
      token.type === Tok.STREAM_END
    ) {
      this.popState()
      return emptyScalar()
    }
    return this.parseNode(true, false)
  }

  /** yaml_parser_parse_document_end: an optional `...`. */
  private parseDocumentEnd(): Event | undefined {
    const token = this.peek()
    if (token === undefined) return undefined
    // (the event's start mark: the token after the document's node, `...` or what follows it)
    const mark = copyMark(token.start)
    if (token.type === Tok.DOCUMENT_END) this.skip()
    this.tagDirectives.clear()
    this.state = S.DOCUMENT_START
    return { type: Ev.DOCUMENT_END, mark }
  }

  /** yaml_parser_parse_node: an alias, or properties (anchor, tag) and content. */
  private parseNode(block: boolean, indentlessSequence: boolean): Event | undefined {
    let token = this.peek()
    if (token === undefined) return undefined
    if (token.type === Tok.ALIAS) {
      this.popState()
      this.skip()
      return { type: Ev.ALIAS, anchor: token.value as string, mark: token.start }
    }
    let startMark = token.start
    let anchor: string | undefined
    let tagHandle: string | undefined
    let tagMark = startMark
    if (token.type === Tok.ANCHOR) {
      anchor = token.value
      this.skip()
      token = this.peek()
      if (token === undefined) return undefined
      if (token.type === Tok.TAG) {
        tagHandle = token.value
        tagMark = token.start
        this.skip()
        token = this.peek()
        if (token === undefined) return undefined
      }
    } else if (token.type === Tok.TAG) {
      tagHandle = token.value
      startMark = token.start
      tagMark = token.start
      this.skip()
      token = this.peek()
      if (token === undefined) return undefined
      if (token.type === Tok.ANCHOR) {
        anchor = token.value
        this.skip()
        token = this.peek()
        if (token === undefined) return undefined
      }
    }
    // a handle must be declared (`!` and `!!` always are); a tag without one is its suffix
    if (tagHandle !== undefined && tagHandle !== '' && !this.tagDirectives.has(tagHandle)) {
      return this.errorContext('while parsing a node', startMark, 'found undefined tag handle', tagMark)
    }
    if (indentlessSequence && token.type === Tok.BLOCK_ENTRY) {
      this.state = S.INDENTLESS_SEQUENCE_ENTRY
      return event(Ev.SEQUENCE_START, anchor)
    }
    switch (token.type as TokenType) {
      case Tok.SCALAR:
        this.popState()
        this.skip()
        return event(Ev.SCALAR, anchor)
      case Tok.FLOW_SEQUENCE_START:
        this.state = S.FLOW_SEQUENCE_FIRST_ENTRY
        return event(Ev.SEQUENCE_START, anchor)
      case Tok.FLOW_MAPPING_START:
        this.state = S.FLOW_MAPPING_FIRST_KEY
        return event(Ev.MAPPING_START, anchor)
    }
    if (block && token.type === Tok.BLOCK_SEQUENCE_START) {
      this.state = S.BLOCK_SEQUENCE_FIRST_ENTRY
      return event(Ev.SEQUENCE_START, anchor)
    }
    if (block && token.type === Tok.BLOCK_MAPPING_START) {
      this.state = S.BLOCK_MAPPING_FIRST_KEY
      return event(Ev.MAPPING_START, anchor)
    }
    // properties alone: an empty scalar (a tag is never empty)
    if (anchor !== undefined || tagHandle !== undefined) {
      this.popState()
      return event(Ev.SCALAR, anchor)
    }
    const context = block ? 'while parsing a block node' : 'while parsing a flow node'
    return this.errorContext(context, startMark, 'did not find expected node content', token.start)
  }

  /** block_sequence ::= BLOCK-SEQUENCE-START (BLOCK-ENTRY block_node?)* BLOCK-END */
  private parseBlockSequenceEntry(first: boolean): Event | undefined {
    if (first) this.takeStartMark()
    let token = this.peek()
    if (token === undefined) return undefined
    if (token.type === Tok.BLOCK_ENTRY) {
      this.skip()
      token = this.peek()
      if (token === undefined) return undefined
      if (token.type !== Tok.BLOCK_ENTRY && token.type !== Tok.BLOCK_END) {
        this.states.push(S.BLOCK_SEQUENCE_ENTRY)
        return this.parseNode(true, false)
      }
      this.state = S.BLOCK_SEQUENCE_ENTRY
      return emptyScalar()
    }
    if (token.type === Tok.BLOCK_END) {
      this.popState()
      this.marks.pop()
      this.skip()
      return event(Ev.SEQUENCE_END)
    }
    const contextMark = this.marks.pop() as Mark
    return this.errorContext(
      'while parsing a block collection',
      contextMark,
      "did not find expected '-' indicator",
      token.start,
    )
  }

  /** indentless_sequence ::= (BLOCK-ENTRY block_node?)+ */
  private parseIndentlessSequenceEntry(): Event | undefined {
    let token = this.peek()
    if (token === undefined) return undefined
    if (token.type === Tok.BLOCK_ENTRY) {
      this.skip()
      token = this.peek()
      if (token === undefined) return undefined
      if (
        token.type !== Tok.BLOCK_ENTRY &&
        token.type !== Tok.KEY &&
        token.type !== Tok.VALUE &&
        token.type !== Tok.BLOCK_END
      ) {
        this.states.push(S.INDENTLESS_SEQUENCE_ENTRY)
        return this.parseNode(true, false)
      }
      this.state = S.INDENTLESS_SEQUENCE_ENTRY
      return emptyScalar()
    }
    this.popState()
    return event(Ev.SEQUENCE_END)
  }

  /** block_mapping ::= BLOCK-MAPPING-START ((KEY node?)? (VALUE node?)?)* BLOCK-END (a key) */
  private parseBlockMappingKey(first: boolean): Event | undefined {
    if (first) this.takeStartMark()
    let token = this.peek()
    if (token === undefined) return undefined
    if (token.type === Tok.KEY) {
      this.skip()
      token = this.peek()
      if (token === undefined) return undefined
      if (token.type !== Tok.KEY && token.type !== Tok.VALUE && token.type !== Tok.BLOCK_END) {
        this.states.push(S.BLOCK_MAPPING_VALUE)
        return this.parseNode(true, true)
      }
      this.state = S.BLOCK_MAPPING_VALUE
      return emptyScalar()
    }
    if (token.type === Tok.BLOCK_END) {
      this.popState()
      this.marks.pop()
      this.skip()
      return event(Ev.MAPPING_END)
    }
    const contextMark = this.marks.pop() as Mark
    return this.errorContext('while parsing a block mapping', contextMark, 'did not find expected key', token.start)
  }

  /** block_mapping (a value) */
  private parseBlockMappingValue(): Event | undefined {
    let token = this.peek()
    if (token === undefined) return undefined
    if (token.type === Tok.VALUE) {
      this.skip()
      token = this.peek()
      if (token === undefined) return undefined
      if (token.type !== Tok.KEY && token.type !== Tok.VALUE && token.type !== Tok.BLOCK_END) {
        this.states.push(S.BLOCK_MAPPING_KEY)
        return this.parseNode(true, true)
      }
    }
    this.state = S.BLOCK_MAPPING_KEY
    return emptyScalar()
  }

  /** flow_sequence ::= FLOW-SEQUENCE-START (flow_sequence_entry FLOW-ENTRY)* flow_sequence_entry? FLOW-SEQUENCE-END */
  private parseFlowSequenceEntry(first: boolean): Event | undefined {
    if (first) this.takeStartMark()
    let token = this.peek()
    if (token === undefined) return undefined
    if (token.type !== Tok.FLOW_SEQUENCE_END) {
      if (!first) {
        if (token.type !== Tok.FLOW_ENTRY) {
          const contextMark = this.marks.pop() as Mark
          return this.errorContext(
            'while parsing a flow sequence',
            contextMark,
            "did not find expected ',' or ']'",
            token.start,
          )
        }
        this.skip()
        token = this.peek()
        if (token === undefined) return undefined
      }
      if (token.type === Tok.KEY) {
        // a single-pair mapping: `[a: b]`, `[? a]`
        this.state = S.FLOW_SEQUENCE_ENTRY_MAPPING_KEY
        this.skip()
        return event(Ev.MAPPING_START)
      }
      if (token.type !== Tok.FLOW_SEQUENCE_END) {
        this.states.push(S.FLOW_SEQUENCE_ENTRY)
        return this.parseNode(false, false)
      }
    }
    this.popState()
    this.marks.pop()
    this.skip()
    return event(Ev.SEQUENCE_END)
  }

  /** flow_sequence_entry ::= KEY flow_node? (VALUE flow_node?)? (the key; go-yaml skips the token after an empty one) */
  private parseFlowSequenceEntryMappingKey(): Event | undefined {
    const token = this.peek()
    if (token === undefined) return undefined
    if (token.type !== Tok.VALUE && token.type !== Tok.FLOW_ENTRY && token.type !== Tok.FLOW_SEQUENCE_END) {
      this.states.push(S.FLOW_SEQUENCE_ENTRY_MAPPING_VALUE)
      return this.parseNode(false, false)
    }
    this.skip()
    this.state = S.FLOW_SEQUENCE_ENTRY_MAPPING_VALUE
    return emptyScalar()
  }

  /** flow_sequence_entry (the value) */
  private parseFlowSequenceEntryMappingValue(): Event | undefined {
    let token = this.peek()
    if (token === undefined) return undefined
    if (token.type === Tok.VALUE) {
      this.skip()
      token = this.peek()
      if (token === undefined) return undefined
      if (token.type !== Tok.FLOW_ENTRY && token.type !== Tok.FLOW_SEQUENCE_END) {
        this.states.push(S.FLOW_SEQUENCE_ENTRY_MAPPING_END)
        return this.parseNode(false, false)
      }
    }
    this.state = S.FLOW_SEQUENCE_ENTRY_MAPPING_END
    return emptyScalar()
  }

  /** flow_sequence_entry (its end) */
  private parseFlowSequenceEntryMappingEnd(): Event | undefined {
    if (this.peek() === undefined) return undefined
    this.state = S.FLOW_SEQUENCE_ENTRY
    return event(Ev.MAPPING_END)
  }

  /** flow_mapping ::= FLOW-MAPPING-START (flow_mapping_entry FLOW-ENTRY)* flow_mapping_entry? FLOW-MAPPING-END */
  private parseFlowMappingKey(first: boolean): Event | undefined {
    if (first) this.takeStartMark()
    let token = this.peek()
    if (token === undefined) return undefined
    if (token.type !== Tok.FLOW_MAPPING_END) {
      if (!first) {
        if (token.type !== Tok.FLOW_ENTRY) {
          const contextMark = this.marks.pop() as Mark
          return this.errorContext(
            'while parsing a flow mapping',
            contextMark,
            "did not find expected ',' or '}'",
            token.start,
          )
        }
        this.skip()
        token = this.peek()
        if (token === undefined) return undefined
      }
      if (token.type === Tok.KEY) {
        this.skip()
        token = this.peek()
        if (token === undefined) return undefined
        if (token.type !== Tok.VALUE && token.type !== Tok.FLOW_ENTRY && token.type !== Tok.FLOW_MAPPING_END) {
          this.states.push(S.FLOW_MAPPING_VALUE)
          return this.parseNode(false, false)
        }
        this.state = S.FLOW_MAPPING_VALUE
        return emptyScalar()
      }
      if (token.type !== Tok.FLOW_MAPPING_END) {
        this.states.push(S.FLOW_MAPPING_EMPTY_VALUE)
        return this.parseNode(false, false)
      }
    }
    this.popState()
    this.marks.pop()
    this.skip()
    return event(Ev.MAPPING_END)
  }

  /** flow_mapping_entry (the value; `empty` for an entry without a ':') */
  private parseFlowMappingValue(empty: boolean): Event | undefined {
    let token = this.peek()
    if (token === undefined) return undefined
    if (!empty && token.type === Tok.VALUE) {
      this.skip()
      token = this.peek()
      if (token === undefined) return undefined
      if (token.type !== Tok.FLOW_ENTRY && token.type !== Tok.FLOW_MAPPING_END) {
        this.states.push(S.FLOW_MAPPING_KEY)
        return this.parseNode(false, false)
      }
    }
    this.state = S.FLOW_MAPPING_KEY
    return emptyScalar()
  }

  /** A collection's first entry: its start token's mark goes on the stack (the token is already peeked). */
  private takeStartMark(): void {
    this.marks.push((this.peek() as Token).start)
    this.skip()
  }

  /** yaml_parser_process_directives: the %YAML and %TAG directives before a document, then the defaults. */
  private processDirectives(): boolean {
    let token = this.peek()
    if (token === undefined) return false
    let version = false
    while (token.type === Tok.VERSION_DIRECTIVE || token.type === Tok.TAG_DIRECTIVE) {
      if (token.type === Tok.VERSION_DIRECTIVE) {
        if (version) return this.error('found duplicate %YAML directive', token.start) ?? false
        if (token.major !== 1 || token.minor !== 1) {
          return this.error('found incompatible YAML document', token.start) ?? false
        }
        version = true
      } else if (!this.appendTagDirective(token.value as string, false, token.start)) return false
      this.skip()
      token = this.peek()
      if (token === undefined) return false
    }
    // default_tag_directives
    this.appendTagDirective('!', true, token.start)
    this.appendTagDirective('!!', true, token.start)
    return true
  }

  /** yaml_parser_append_tag_directive */
  private appendTagDirective(handle: string, allowDuplicates: boolean, mark: Mark): boolean {
    if (this.tagDirectives.has(handle)) {
      if (allowDuplicates) return true
      return this.error('found duplicate %TAG directive', mark) ?? false
    }
    this.tagDirectives.add(handle)
    return true
  }
}
