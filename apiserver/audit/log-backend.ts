/**
 * --audit-log-path: events as JSON lines ("-" = standard out), appended as they come, as Kubernetes'
 * log backend does in its default blocking mode (a local append of a few kilobytes).
 * Rotation as Kubernetes' (lumberjack): a file that would grow past --audit-log-maxsize megabytes is
 * renamed `<name>-<UTC time>.<ext>` and a new one started; backups beyond --audit-log-maxbackup or
 * older than --audit-log-maxage days are removed (0 = no limit).
 */
import { closeSync, mkdirSync, openSync, readdirSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { toError } from '../api/thrown.js';
import { basename, dirname, extname, join } from 'node:path';
import type { AuditBackend } from './types.js';

export interface LogBackendOptions {
  path: string;
  /** Megabytes; 0 = never rotate. */
  maxSizeMB: number;
  maxBackups: number;
  maxAgeDays: number;
  /** Where write failures are reported. */
  onError(err: Error): void;
}

export function newLogBackend(opts: LogBackendOptions): AuditBackend {
  if (opts.path === '-') {
    return {
      process: (events) => {
        for (const e of events) process.stdout.write(`${JSON.stringify(e)}\n`);
      },
      shutdown: async () => {},
    };
  }
  mkdirSync(dirname(opts.path), { recursive: true });
  const maxBytes = opts.maxSizeMB * 1024 * 1024;
  let size = fileSize(opts.path);
  let fd = openSync(opts.path, 'a', 0o600);
  const rotate = () => {
    closeSync(fd);
    renameSync(opts.path, backupName(opts.path, new Date()));
    fd = openSync(opts.path, 'a', 0o600);
    size = 0;
    prune(opts);
  };
  return {
    process(events) {
      for (const e of events) {
        const line = Buffer.from(`${JSON.stringify(e)}\n`);
        try {
          if (maxBytes > 0 && size > 0 && size + line.length > maxBytes) rotate();
          writeSync(fd, line);
          size += line.length;
        } catch (err) {
          opts.onError(toError(err));
        }
      }
    },
    shutdown: async () => closeSync(fd),
  };
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** lumberjack's backup name: audit-2006-01-02T15-04-05.000.log. */
function backupName(path: string, at: Date): string {
  const ext = extname(path);
  const stamp = at.toISOString().replace(/Z$/, '').replace(/:/g, '-');
  return join(dirname(path), `${basename(path, ext)}-${stamp}${ext}`);
}

/** Backups of `path`, newest first. */
function backups(path: string): { file: string; time: number }[] {
  const ext = extname(path);
  const prefix = `${basename(path, ext)}-`;
  const out: { file: string; time: number }[] = [];
  for (const name of readdirSync(dirname(path))) {
    if (!name.startsWith(prefix) || !name.endsWith(ext)) continue;
    const stamp = name.slice(prefix.length, name.length - ext.length);
    const m = /^(\d{4}-\d{2}-\d{2}T\d{2})-(\d{2})-(\d{2}\.\d{3})$/.exec(stamp);
    if (!m) continue;
    out.push({ file: join(dirname(path), name), time: Date.parse(`${m[1]}:${m[2]}:${m[3]}Z`) });
  }
  return out.sort((a, b) => b.time - a.time);
}

function prune(opts: LogBackendOptions): void {
  const cutoff = Date.now() - opts.maxAgeDays * 86_400_000;
  backups(opts.path).forEach((b, i) => {
    if ((opts.maxBackups > 0 && i >= opts.maxBackups) || (opts.maxAgeDays > 0 && b.time < cutoff)) unlinkSync(b.file);
  });
}
