import { gzipSync } from 'node:zlib'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { examples } from '../../../src/playground/examples.js'
import {
  type Browser,
  browserMissing,
  evaluations,
  launchBrowser,
  type Playground,
  paneText,
  setPane,
  settled,
  shown,
  startPlayground,
} from './browser.js'

// the functions given to page.evaluate run in the page: its globals, for the type checker (the tests' tsconfig has
// no DOM library)
declare const document: any
declare const navigator: any
declare const getComputedStyle: (e: unknown) => { color: string; backgroundColor: string }

// The playground page in Debian's Chromium, served by `kelp playground` (docs/playground.md): what it loads
// (its own files only, under the size budget), the URL round trip, keyboard use, the themes' contrast, offline.

const missing = browserMissing()
if (missing) console.warn(`playground browser tests skipped: ${missing}`)

/** Issue 31: the first load under 1.5 MB compressed. */
const FIRST_LOAD_BUDGET = 1_500_000

describe.skipIf(missing !== undefined)('the playground page', () => {
  let playground: Playground
  let browser: Browser

  beforeAll(async () => {
    playground = await startPlayground()
    browser = await launchBrowser()
  })
  afterAll(async () => {
    await browser?.close()
    await playground?.stop()
  })

  async function open(url = playground.url): Promise<Page> {
    const page = await browser.newPage()
    await page.goto(url)
    await page.waitForFunction(() => Number(document.body.dataset.evaluations ?? '0') > 0, undefined, {
      timeout: 30_000,
    })
    return page
  }

  it('loads the default example from its own files, under 1.5 MB compressed', async () => {
    const page = await browser.newPage()
    const loaded: { url: string; gzip: number }[] = []
    page.on('response', async (res) => {
      if (res.status() !== 200) return
      const body = await res.body().catch(() => undefined)
      if (body) loaded.push({ url: res.url(), gzip: gzipSync(body, { level: 9 }).length })
    })
    await page.goto(playground.url)
    await page.waitForFunction(() => Number(document.body.dataset.evaluations ?? '0') > 0)
    await page.waitForLoadState('networkidle')
    const total = loaded.reduce((n, r) => n + r.gzip, 0)
    console.log(
      `playground first load: ${loaded.length} files, ${(total / 1024).toFixed(1)} KiB gzip\n` +
        loaded.map((r) => `  ${new URL(r.url).pathname} ${(r.gzip / 1024).toFixed(1)} KiB`).join('\n'),
    )
    expect(loaded.length).toBeGreaterThan(0)
    expect(total).toBeLessThan(FIRST_LOAD_BUDGET)
    expect((await shown(page)).verdict).toMatch(/^(Allowed|Denied)$/)
    await page.close()
  })

  it('reproduces a case from its URL: the same panes, request and answer', async () => {
    const page = await open()
    await page.locator('#operation').selectOption('UPDATE')
    await page.locator('#username').fill('bob')
    await setPane(page, 'oldObject', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: old\n')
    await setPane(page, 'material', `${await paneText(page, 'material')}\n# a comment typed in the page\n`)
    const url = page.url()
    expect(new URL(url).hash.length).toBeGreaterThan(1)
    const before = {
      material: await paneText(page, 'material'),
      object: await paneText(page, 'object'),
      oldObject: await paneText(page, 'oldObject'),
      shown: await shown(page),
    }
    const again = await open(url)
    expect(await again.locator('#operation').inputValue()).toBe('UPDATE')
    expect(await again.locator('#username').inputValue()).toBe('bob')
    expect(await again.locator('#release').inputValue()).toBe(await page.locator('#release').inputValue())
    expect(await again.locator('#pane-oldObject').isVisible()).toBe(true)
    expect({
      material: await paneText(again, 'material'),
      object: await paneText(again, 'object'),
      oldObject: await paneText(again, 'oldObject'),
      shown: await shown(again),
    }).toEqual(before)
    expect(before.material).toContain('# a comment typed in the page')
    // a reload of the same address gives the same again
    await again.reload()
    await again.waitForFunction(() => Number(document.body.dataset.evaluations ?? '0') > 0)
    expect(await paneText(again, 'material')).toBe(before.material)
    await page.close()
    await again.close()
  })

  it('says so when a link is not a state, and shows the first example', async () => {
    const page = await open(`${playground.url}#not-a-state!`)
    expect(await page.locator('#notice').textContent()).toMatch(
      /^This link's case could not be read \(.+\); showing the first example\.$/,
    )
    const plain = await open()
    expect(await paneText(page, 'material')).toBe(await paneText(plain, 'material'))
    await plain.close()
    await page.close()
  })

  it('is usable by keyboard: examples menu, editors (Escape then Tab leaves one), problems list', async () => {
    const page = await open()
    // the first stops of the tab order: the skip link, then the examples menu and its button
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('skip')
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('example')
    const options = await page.locator('#example option').count()
    if (options > 1) {
      await page.keyboard.press('ArrowDown')
      expect(await page.locator('#example').inputValue()).toBe('1')
      const loaded = await evaluations(page)
      await page.keyboard.press('Tab')
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('load-example')
      await page.keyboard.press('Enter')
      await settled(page, loaded)
      expect(await paneText(page, 'material')).toBe(examples[1]?.state.material)
    }
    // into the material editor: Tab indents there; Escape then Tab moves on to the object editor
    await page.locator('#editor-material .cm-content').focus()
    await page.keyboard.press('ControlOrMeta+Home')
    const text = await paneText(page, 'material')
    const before = await evaluations(page)
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.closest('.editor')?.id)).toBe('editor-material')
    await settled(page, before)
    expect(await paneText(page, 'material')).toBe(`  ${text}`)
    await page.keyboard.press('Escape')
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.closest('.editor')?.id)).toBe('editor-object')
    // every control has a label a screen reader reads
    const unlabelled = await page.evaluate(() =>
      [...document.querySelectorAll('input, select, button, [contenteditable="true"]')]
        .filter((e: any) => {
          const labels = (e as { labels?: { length: number } | null }).labels
          return !(labels && labels.length > 0) && !e.getAttribute('aria-label') && !(e.textContent ?? '').trim()
        })
        .map((e) => e.outerHTML.slice(0, 80)),
    )
    expect(unlabelled).toEqual([])
    await page.close()
  })

  it('has light and dark themes with readable contrast, and a toggle', async () => {
    const page = await open()
    const contrast = () =>
      page.evaluate(() => {
        const rgb = (c: string) => (c.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number)
        const lum = (c: string) => {
          const [r, g, b] = rgb(c).map((v) => {
            const s = v / 255
            return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
          })
          return 0.2126 * (r as number) + 0.7152 * (g as number) + 0.0722 * (b as number)
        }
        const ratio = (a: string, b: string) => {
          const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p)
          return ((x as number) + 0.05) / ((y as number) + 0.05)
        }
        const bg = getComputedStyle(document.body).backgroundColor
        const of = (sel: string) => {
          const e = document.querySelector(sel)
          return e ? getComputedStyle(e).color : bg
        }
        return {
          theme: document.documentElement.dataset.theme,
          text: ratio(of('body'), bg),
          muted: ratio(of('.help'), bg),
          label: ratio(of('label'), getComputedStyle(document.querySelector('.bar')).backgroundColor),
        }
      })
    const light = await contrast()
    expect(light.theme).toBe('light')
    await page.locator('#theme').click()
    expect(await page.locator('#theme').getAttribute('aria-pressed')).toBe('true')
    const dark = await contrast()
    expect(dark.theme).toBe('dark')
    for (const c of [light, dark]) {
      expect(c.text).toBeGreaterThanOrEqual(4.5)
      expect(c.muted).toBeGreaterThanOrEqual(4.5)
      expect(c.label).toBeGreaterThanOrEqual(4.5)
    }
    // the choice is kept for the next visit
    await page.reload()
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark')
    await page.locator('#theme').click()
    await page.close()
  })

  it('works offline once loaded (service worker)', async () => {
    const page = await open()
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready
    })
    // controlled from the next navigation on
    await page.reload()
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null)
    await browser.context.setOffline(true)
    try {
      await page.reload()
      await page.waitForFunction(() => Number(document.body.dataset.evaluations ?? '0') > 0, undefined, {
        timeout: 30_000,
      })
      const before = await evaluations(page)
      await setPane(page, 'object', `${await paneText(page, 'object')}\n# offline\n`)
      expect(await evaluations(page)).toBeGreaterThan(before)
      expect((await shown(page)).verdict).toMatch(/^(Allowed|Denied)$/)
    } finally {
      await browser.context.setOffline(false)
    }
    await page.close()
  })

  it('made no request to another origin', () => {
    const foreign = browser.requests
      .map((r) => r.url())
      .filter((u) => !u.startsWith('data:') && new URL(u).origin !== playground.origin)
    expect(browser.requests.length).toBeGreaterThan(0)
    expect(foreign).toEqual([])
  })
})
