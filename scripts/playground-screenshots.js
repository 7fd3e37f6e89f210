// Screenshots of the playground's main states for docs/playground.md (docs/playground/*.png), on demand, after
// `npm run build`: `node scripts/playground-screenshots.js`. Not run in CI. The page is served by the built
// `kelp playground` and shown by Debian's Chromium (/usr/bin/chromium, or $KELP_CHROMIUM) through
// playwright-core; each state is opened from its link (the state encoded in the URL fragment, as the page does).
import { spawn } from 'node:child_process'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const out = join(root, 'docs/playground')
const { encodeState } = await import(join(root, 'dist/playground/state.js'))
const { examples } = await import(join(root, 'dist/playground/examples.js'))
const example = (prefix) => {
  const e = examples.find((x) => x.name.startsWith(prefix))
  if (!e) throw new Error(`playground-screenshots: no example named ${prefix}…`)
  return e.state
}
const states = { deny: example('Deny'), mutation: example('Mutation'), 'type-error': example('Type error') }
const shots = [
  ['deny', 'light'],
  ['deny', 'dark'],
  ['mutation', 'light'],
  ['mutation', 'dark'],
  ['type-error', 'light'],
]

const server = spawn(process.execPath, [join(root, 'dist/cli/kelp.cjs'), 'playground', '--port', '0'], {
  stdio: ['ignore', 'pipe', 'inherit'],
})
const url = await new Promise((resolve, reject) => {
  let text = ''
  server.stdout.on('data', (d) => {
    text += d
    const m = /^kelp playground: (http:\/\/\S+)$/m.exec(text)
    if (m) resolve(m[1])
  })
  server.once('exit', (code) => reject(new Error(`kelp playground exited (${code})`)))
})
const profile = await mkdtemp(join(tmpdir(), 'kelp-playground-shots-'))
try {
  await mkdir(out, { recursive: true })
  for (const [name, theme] of shots) {
    const context = await chromium.launchPersistentContext(join(profile, `${name}-${theme}`), {
      executablePath: process.env.KELP_CHROMIUM ?? '/usr/bin/chromium',
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'],
      viewport: { width: 1400, height: 860 },
      colorScheme: theme,
      deviceScaleFactor: 1,
    })
    const page = await context.newPage()
    await page.goto(`${url}#${await encodeState(states[name])}`)
    await page.waitForFunction(() => Number(document.body.dataset.evaluations ?? '0') > 0, undefined, {
      timeout: 30_000,
    })
    if (name === 'type-error') {
      // the problem chosen from the list: the cursor at its line and column, its underline's message shown
      await page.locator('#problems button.marker').first().click()
      await page.locator('#editor-material .cm-lintRange').first().hover()
      await page.waitForTimeout(400)
    }
    const file = join(out, `${name}-${theme}.png`)
    await page.screenshot({ path: file })
    console.log(`playground-screenshots: ${file}`)
    await context.close()
  }
} finally {
  server.kill('SIGTERM')
  await rm(profile, { recursive: true, force: true })
}
