import { requirePackage } from '../node-host.js'

// The position-keeping `yaml` package, for the rare texts that need it (collection keys in a template, a List
// written in flow style): Node requires it on first use (loading it costs ~25 ms, not paid at every start); a
// page, which cannot require, provides the module it bundled (provideYamlPackage) before evaluating.

type YamlModule = typeof import('yaml')
let yamlModule: YamlModule | undefined

/** Gives the module to use (a page's bundled import of `yaml`). */
export function provideYamlPackage(module: YamlModule): void {
  yamlModule = module
}

/** The `yaml` module: the one provided, else required from Node. */
export function yamlPackage(): YamlModule {
  yamlModule ??= requirePackage('yaml', import.meta.url) as YamlModule | undefined
  if (yamlModule === undefined) throw new Error('kelp: the yaml package was not provided (provideYamlPackage)')
  return yamlModule
}
