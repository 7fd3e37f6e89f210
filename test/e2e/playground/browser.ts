// The playground's browser tests' harness: `kelp playground` started from the built CLI (node dist/cli/kelp.cjs,
// its documented flags only) on a free port, and Debian's Chromium (/usr/bin/chromium, installed by .ci/run)
// driven by playwright-core (no browser of its own is downloaded), with a fresh profile. Both are stopped by
// their handles when the tests end.
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type BrowserContext, chromium, type Page, type Request } from 'playwright-core'
import { decodeState } from '../../../src/playground/state.js'

// the functions given to page.evaluate run in the page: its globals, for the type checker (the tests' tsconfig has
// no DOM library)
declare const document: any

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../..')
export const CHROMIUM = process.env.KELP_CHROMIUM ?? '/usr/bin/chromium'

/** Why the browser tests cannot run here (printed by the test file), or undefined when they can. */
export function browserMissing(): string | undefined {
  if (!existsSync(CHROMIUM)) return `${CHROMIUM} is not installed (.ci/run installs Debian's chromium package)`
  if (!existsSync(join(ROOT, 'dist/playground/index.html'))) return 'dist/playground/ is not built (npm run build)'
  return undefined
}

export interface Playground {
  readonly url: string
  readonly origin: string
  stop(): Promise<void>
}

/** `kelp playground --port 0`: the URL it prints once listening. */
export async function startPlayground(): Promise<Playground> {
  const child: ChildProcess = spawn(
    process.execPath,
    [join(ROOT, 'dist/cli/kelp.cjs'), 'playground', '--port', '0', '--host', '127.0.0.1'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let out = ''
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`kelp playground did not start: ${out}`)), 20_000)
    const read = (chunk: Buffer) => {
      out += chunk.toString('utf8')
      const m = /^kelp playground: (http:\/\/\S+)$/m.exec(out)
      if (m) {
        clearTimeout(timer)
        resolve(m[1] as string)
      }
    }
    child.stdout?.on('data', read)
    child.stderr?.on('data', read)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`kelp playground exited (${code}): ${out}`))
    })
  })
  return {
    url,
    origin: new URL(url).origin,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}

export interface Browser {
  readonly context: BrowserContext
  /** Every request the browser made for any page or worker of the context, in order. */
  readonly requests: Request[]
  newPage(): Promise<Page>
  close(): Promise<void>
}

export async function launchBrowser(options: { colorScheme?: 'light' | 'dark' } = {}): Promise<Browser> {
  const profile = await mkdtemp(join(tmpdir(), 'kelp-playground-chromium-'))
  // launchPersistentContext: the profile folder is ours (a fresh --user-data-dir), not playwright's
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1400, height: 900 },
    colorScheme: options.colorScheme ?? 'light',
    serviceWorkers: 'allow',
  })
  const requests: Request[] = []
  context.on('request', (r) => requests.push(r))
  return {
    context,
    requests,
    newPage: () => context.newPage(),
    close: async () => {
      await context.close()
      await rm(profile, { recursive: true, force: true })
    },
  }
}

export type PaneId = 'material' | 'object' | 'oldObject'

/** Replaces a pane's text as typed input (one insertion, as a paste), then waits for the answer to it. */
export async function setPane(page: Page, pane: PaneId, text: string): Promise<void> {
  // the same text again is no change: nothing to type, no evaluation to wait for
  if ((await paneText(page, pane)) === text) return
  const before = await evaluations(page)
  await page.locator(`#editor-${pane} .cm-content`).click()
  await page.keyboard.press('ControlOrMeta+a')
  if (text === '') await page.keyboard.press('Delete')
  else await page.keyboard.insertText(text)
  await settled(page, before)
}

/** The number of evaluations the page has shown, its link rewritten after each (body[data-evaluations]). */
export async function evaluations(page: Page): Promise<number> {
  return Number((await page.locator('body').getAttribute('data-evaluations')) ?? '0')
}

/** Waits until an evaluation later than `after` is shown and no other is pending. */
export async function settled(page: Page, after: number): Promise<void> {
  await page.waitForFunction((n) => Number(document.body.dataset.evaluations ?? '0') > n, after, {
    timeout: 30_000,
  })
  // the debounce (150 ms) may still hold a later keystroke's evaluation
  await page.waitForTimeout(300)
}

/** The text of a pane as the page holds it: read from its link (the state in the URL fragment, rewritten after
 * each evaluation), since the editor draws only the lines in view. */
export async function paneText(page: Page, pane: PaneId): Promise<string> {
  const state = await decodeState(new URL(page.url()).hash.slice(1))
  return state[pane]
}

/** What the results column shows. */
export async function shown(page: Page) {
  const texts = async (sel: string) => (await page.locator(sel).allTextContents()).map((t) => t.trim())
  return {
    verdict: (await page.locator('#verdict').textContent())?.trim(),
    kubectl: ((await page.locator('#kubectl').textContent()) ?? '').split('\n').filter((l) => l !== ''),
    warnings: (await page.locator('#warnings-section').isVisible()) ? await texts('#warnings li') : [],
    stored: (await page.locator('#stored-section').isVisible()) ? await page.locator('#stored').textContent() : null,
    native: (await page.locator('#native-section').isVisible()) ? await texts('#native li') : [],
    diff: (await page.locator('#mutation-section').isVisible()) ? await page.locator('#diff').textContent() : null,
    patch: (await page.locator('#mutation-section').isVisible())
      ? (JSON.parse((await page.locator('#patch').textContent()) ?? 'null') as unknown)
      : null,
    problems: await page.locator('#problems button.marker').evaluateAll((bs) =>
      bs.map((b) => ({
        pane: (b as { dataset: Record<string, string> }).dataset.pane,
        line: Number((b as { dataset: Record<string, string> }).dataset.line),
        column: Number((b as { dataset: Record<string, string> }).dataset.column),
        severity: b.querySelector('.severity')?.textContent,
        message: b.querySelector('.message')?.textContent,
      })),
    ),
    costs: await page
      .locator('#costs tbody tr')
      .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent ?? ''))),
  }
}
