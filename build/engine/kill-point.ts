/**
 * Fault injection for the crash tests: DIAOBAN_KILL_AT=<point> makes the
 * build kill itself (SIGKILL, as a power cut or the OOM killer would) when it
 * reaches that point. Unset, nothing happens.
 */
export function killPoint(name: string): void {
  if (process.env.DIAOBAN_KILL_AT === name) process.kill(process.pid, 'SIGKILL');
}
