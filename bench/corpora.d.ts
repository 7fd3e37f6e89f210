// Types of bench/corpora.js for the tests that check its generators (test/bench/corpora.test.ts).

export interface Corpus {
  dir: string
  objects: number
  files: number
  bytes: number
}
export interface PublicCorpus extends Corpus {
  copies: number
  perCopy: number
  renamed: number
  skippedFiles: number
  crds: number
  crdFile: string
  customKinds: string[]
}
export const ROOT: string
export const PUBLIC: string
export const SHARED_CRDS: string
export const PER_FILE: number
export function walk(dir: string, out?: string[]): string[]
export function splitDocuments(text: string): string[]
export function writePolicies(file: string): string
export function blockCorpus(dir: string, n: number): Corpus
export function flowCorpus(dir: string, n: number): Corpus
export function multiContainerDeployment(i: number): Record<string, any>
export function containersCorpus(dir: string, n: number): Corpus
export function renamed(text: string, name: unknown, suffix: string): string | undefined
export function publicCorpus(dir: string, n: number, crdFile: string): PublicCorpus
