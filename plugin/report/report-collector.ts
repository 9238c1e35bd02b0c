/**
 * What the plugin keeps for the `report` option over one build: each compiled module (the latest compile of a file
 * wins, so a watcher's rebuild reports the current code) and where the bundle goes. Inert when the option is off.
 */
import type { NativeBuildContext } from 'unplugin'
import type { ResolvedOptions } from '../options.ts'
import type { CompiledModule } from '../pipeline.ts'
import { buildReport, writeReport, type ReportedModule } from './build-report.ts'
import { outputDirOf } from './output-dir.ts'

export interface ReportCollector {
  /** `source`: the code compiled, where the warnings' lines are counted. */
  add(moduleId: string, compiled: CompiledModule, native: NativeBuildContext | undefined, source?: string): void
  /** Writes the report into `report.dir`, else `outputDir`, else where the transforms saw the bundle going. */
  write(outputDir?: string): Promise<void>
}

export function createReportCollector(opts: ResolvedOptions): ReportCollector {
  const modules = new Map<string, ReportedModule>()
  let seenOutputDir: string | undefined
  return {
    add(moduleId, compiled, native, source) {
      if (opts.report === undefined) return
      modules.set(moduleId, { moduleId, compiled, source })
      seenOutputDir ??= outputDirOf(native)
    },
    async write(outputDir) {
      const dir = opts.report?.dir ?? outputDir ?? seenOutputDir
      if (opts.report === undefined || dir === undefined || modules.size === 0) return
      const sorted = [...modules.values()].sort((x, y) => x.moduleId.localeCompare(y.moduleId))
      await writeReport(buildReport(sorted, opts), dir)
    },
  }
}
