// Light and dark: the system's choice (prefers-color-scheme) until the toggle is used; the choice is kept in
// localStorage (on this machine only). The page's colours are CSS variables switched by <html data-theme>.

const KEY = 'kelp-playground-theme'

type Theme = 'light' | 'dark'

function stored(): Theme | undefined {
  try {
    const v = localStorage.getItem(KEY)
    return v === 'light' || v === 'dark' ? v : undefined
  } catch {
    return undefined
  }
}

export function initTheme(button: HTMLButtonElement): void {
  const media = window.matchMedia('(prefers-color-scheme: dark)')
  let chosen = stored()
  const current = (): Theme => chosen ?? (media.matches ? 'dark' : 'light')
  const apply = () => {
    const t = current()
    document.documentElement.dataset.theme = t
    button.setAttribute('aria-pressed', String(t === 'dark'))
    button.textContent = t === 'dark' ? 'Dark theme: on' : 'Dark theme: off'
  }
  button.addEventListener('click', () => {
    chosen = current() === 'dark' ? 'light' : 'dark'
    try {
      localStorage.setItem(KEY, chosen)
    } catch {
      // storage refused (private mode): the page still switches for this visit
    }
    apply()
  })
  media.addEventListener('change', apply)
  apply()
}
