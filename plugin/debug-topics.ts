/**
 * POLYKERN_DEBUG's topics: a comma-separated list (`ir,match,path,tune,time`), where `1` (or `all`) stands for the
 * IR after every pass and every pass's time, the two a first look needs.
 */
export function debugTopics(value: string | undefined): readonly string[] {
  const topics = value?.split(',').map((t) => t.trim()) ?? []
  return topics.flatMap((t) => (t === '1' || t === 'all' ? ['ir', 'time'] : [t]))
}
