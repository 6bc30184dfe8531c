// Where results go: standard output, or a file written whole or not at all.
import { statSync } from 'node:fs';
import { isVxError, OutputError, UsageError } from '../errors.js';

/** Where results go: stdout, or a file that appears under its name only when complete. */
export interface ResultSink {
  /** text, or bytes (a document saved with --out) */
  write(text: string | Uint8Array): Promise<void>;
  /** everything was written: flush (and rename the file into place) */
  commit(): Promise<void>;
  /** something failed: leave nothing behind under the file's name */
  abort(): Promise<void>;
}

function writeWithBackPressure(stream: NodeJS.WritableStream, text: string | Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    if (!text.length) return resolve();
    const onError = (e: Error) => reject(e);
    stream.once('error', onError);
    const ok = stream.write(text, () => undefined);
    const done = () => {
      stream.removeListener('error', onError);
      resolve();
    };
    if (ok) done();
    else stream.once('drain', done);
  });
}

/**
 * The file an `--out` names, or undefined for standard output: `--out -` is standard output, as
 * `-` is standard input for --file and --data (never a file named "-").
 */
export function outFile(out: string | undefined): string | undefined {
  if (out !== undefined && !out.trim()) throw new UsageError('--out needs a file name');
  // /dev/stdout names whatever the shell opened (`>> report.txt`): standard output itself
  return out === '-' || (out !== undefined && /^\/(dev\/stdout|dev\/fd\/1|proc\/self\/fd\/1)$/.test(out)) ? undefined : out;
}

/** a path that names a descriptor this process already has open (/dev/stderr, /dev/fd/3, /proc/self/fd/3) */
const DESCRIPTOR_PATH = /^\/(dev\/(stdin|stdout|stderr|fd\/\d+)|proc\/self\/fd\/\d+)$/;

export function streamSink(stream: NodeJS.WritableStream): ResultSink {
  return {
    write: (text) => writeWithBackPressure(stream, text),
    commit: async () => undefined,
    abort: async () => undefined,
  };
}

/**
 * A file written through a temporary file next to it and renamed at commit, so a failure or Ctrl-C
 * never leaves a partial file under the name. The temporary file has a random name
 * (`.<name>.<random>.tmp`) and is created with O_EXCL (`wx`), which never follows a symbolic link
 * planted at its path; it gets the mode of the file it replaces (a new file: 0666 less the umask).
 * It is removed if the process exits before commit.
 *
 * A failure to open the file is a usage error (exit 2: nothing was sent yet); a failure to write
 * it (a full disk) comes after the requests were made: exit 1 (`OutputError`), and the caller says
 * what was sent.
 */
export async function atomicFileSink(path: string, opts: { randomName?: () => string; newMode?: number } = {}): Promise<ResultSink> {
  const fail = (e: unknown): UsageError => new UsageError(`cannot write ${path}: ${fileProblem(e)}`);
  const failedWrite = (e: unknown): OutputError => (isVxError(e) ? (e as OutputError) : new OutputError(`cannot write ${path}: ${fileProblem(e)}; the file was not kept`));
  const place = await placeOf(path, fail);
  if ('sink' in place) return place.sink;
  const { tmp, file } = await openTemporary(place.target, place.mode, fail, opts.randomName, opts.newMode);
  return renamingSink(file, tmp, place.target, failedWrite);
}

/**
 * The permissions a new file made from these files gets (`newMode` of atomicFileSink): the read
 * and write bits all of them share, so that a private source (0600) makes a private target, not
 * one the umask leaves readable by all (0644). Undefined when none is a file vx can look at
 * (standard input, arguments).
 */
export function modeOfSources(paths: readonly string[]): number | undefined {
  let mode: number | undefined;
  for (const p of paths) {
    try {
      const st = statSync(p);
      if (st.isFile()) mode = (mode ?? 0o666) & st.mode & 0o666;
    } catch {
      // not a file to follow
    }
  }
  return mode;
}

/**
 * Where the content of `--out path` goes: straight into an open descriptor, device or pipe (a sink),
 * or into a file renamed over `target` (the file a link names), with the mode of the file it replaces.
 */
async function placeOf(path: string, fail: (e: unknown) => UsageError): Promise<{ sink: ResultSink } | { target: string; mode?: number }> {
  const { createWriteStream } = await import('node:fs');
  const { stat, realpath } = await import('node:fs/promises');
  // an open descriptor is written through, appending: a file behind it was opened by the shell
  // (`2>> log`), and renaming a new file over it (or truncating it) would lose what it held
  const incomplete = (e: unknown) => (isVxError(e) ? (e as OutputError) : new OutputError(`cannot write ${path}: ${fileProblem(e)}; the output is incomplete`));
  if (DESCRIPTOR_PATH.test(path)) return { sink: await directSink(createWriteStream(path, { flags: 'a' }), fail, incomplete) };
  try {
    const st = await stat(path);
    if (st.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    // a device or a pipe (/dev/stdout, /dev/null, a FIFO) is written as it is: renaming a file
    // over it would replace it
    if (!st.isFile()) return { sink: await directSink(createWriteStream(path, { flags: 'w' }), fail, incomplete) };
    // a symbolic link keeps pointing at its file: the new content goes next to the file it names;
    // the file keeps its permissions (a 0600 file stays 0600), never set-user-ID, set-group-ID or
    // sticky: new content under a setuid program's name must not run with its owner's rights
    return { target: await realpath(path), mode: st.mode & 0o777 };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw isVxError(e) ? e : fail(e);
  }
  return { target: path };
}

/** A new temporary file next to `target`, opened with O_EXCL under a random name, with the kept mode. */
async function openTemporary(
  target: string,
  mode: number | undefined,
  fail: (e: unknown) => UsageError,
  randomName?: () => string,
  newMode?: number,
): Promise<{ tmp: string; file: import('node:fs').WriteStream }> {
  const { createWriteStream, fchmodSync } = await import('node:fs');
  const { basename, dirname, join } = await import('node:path');
  const { randomBytes } = await import('node:crypto');
  let tmp = '';
  let out: import('node:fs').WriteStream | undefined;
  for (let attempt = 0; !out; attempt++) {
    tmp = join(dirname(target), `.${basename(target)}.${randomName?.() ?? randomBytes(6).toString('hex')}.tmp`);
    // a new file: its sources' permissions when given (narrowed by the umask, as any new file)
    const stream = createWriteStream(tmp, { flags: 'wx', mode: mode ?? newMode ?? 0o666 });
    try {
      await new Promise<void>((resolve, reject) => {
        stream.once('open', () => resolve());
        stream.once('error', reject);
      });
      out = stream;
    } catch (e) {
      // a name taken meanwhile (or a planted link): another random name
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 8) throw fail(e);
    }
  }
  // the umask does not narrow a kept mode (it may only have widened it: it cannot)
  if (mode !== undefined) {
    try {
      fchmodSync((out as unknown as { fd: number }).fd, mode);
    } catch {
      /* a file system without modes */
    }
  }
  return { tmp, file: out };
}

/** The sink of a temporary file: renamed to `target` at commit, removed on abort or when the process exits first. */
async function renamingSink(file: import('node:fs').WriteStream, tmp: string, target: string, failedWrite: (e: unknown) => OutputError): Promise<ResultSink> {
  const { unlinkSync } = await import('node:fs');
  const { rename, unlink } = await import('node:fs/promises');
  let settled = false;
  const cleanup = () => {
    if (settled) return;
    try {
      unlinkSync(tmp);
    } catch {
      /* already gone */
    }
  };
  process.once('exit', cleanup);
  const close = () => new Promise<void>((resolve, reject) => file.end((e?: Error | null) => (e ? reject(e) : resolve())));
  const abort = async () => {
    if (settled) return;
    settled = true;
    process.removeListener('exit', cleanup);
    file.destroy();
    await unlink(tmp).catch(() => undefined);
  };
  return {
    write: (text) => writeWithBackPressure(file, text).catch((e) => Promise.reject(failedWrite(e))),
    async commit() {
      try {
        await close();
        await rename(tmp, target);
        settled = true;
        process.removeListener('exit', cleanup);
      } catch (e) {
        await abort();
        throw failedWrite(e);
      }
    },
    abort,
  };
}

/** why a file could not be opened or written, in words */
function fileProblem(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  return err.code === 'ENOENT'
    ? 'no such directory'
    : err.code === 'EACCES'
      ? 'permission denied'
      : err.code === 'EISDIR'
        ? 'it is a directory'
        : err.code === 'ENOSPC'
          ? 'no space left on the device'
          : err.message;
}

/** A sink that writes straight into an open stream (a device or a pipe named by --out). */
async function directSink(out: import('node:fs').WriteStream, fail: (e: unknown) => UsageError, failedWrite: (e: unknown) => OutputError): Promise<ResultSink> {
  await new Promise<void>((resolve, reject) => {
    out.once('open', () => resolve());
    out.once('error', (e) => reject(fail(e)));
  });
  return {
    write: (text) => writeWithBackPressure(out, text).catch((e) => Promise.reject(failedWrite(e))),
    commit: () => new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(failedWrite(e)) : resolve()))),
    abort: async () => void out.destroy(),
  };
}
