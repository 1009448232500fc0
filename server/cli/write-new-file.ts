import { constants, createReadStream } from 'node:fs';
import { link, lstat, mkdtemp, open, rm, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';

/** Why a new file could not be made at a path: something is there already. */
export class DestinationTaken extends Error {
  constructor(
    readonly destination: string,
    /** A symbolic link (dangling or not) rather than a file or folder. */
    readonly symlink: boolean,
  ) {
    super(symlink ? `${destination} is a symbolic link` : `${destination} exists`);
  }
}

/** What a file system without hard links answers link(2) with (vfat: EPERM). */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

/**
 * Makes a new file at `destination` with `write(path)`, for a writer that
 * opens the path it is given itself (SQLite's backup does, following a
 * symbolic link there as any open does): never over anything already at
 * `destination`, and never through a symbolic link, also one made there
 * between the check below and the moment the file appears.
 *
 * The check alone cannot promise that, since someone may make a link after
 * it. So `write` writes into a folder of this call's own, made by mkdtemp
 * beside `destination` (a fresh random name, mode 0700: nobody else can have
 * put a link in it), and the finished file is hard-linked to `destination`:
 * link(2) makes the name or fails with EEXIST whatever is there (a file, a
 * folder, a symbolic link, dangling or not) and never follows a link. The
 * file appears whole or not at all. On a file system without hard links
 * (vfat) it is copied instead into a file opened with O_CREAT | O_EXCL |
 * O_NOFOLLOW, which fails the same way on anything there and never follows a
 * link either. The folder is removed in every case.
 *
 * Throws DestinationTaken when something is at `destination`, before or
 * after the writing.
 */
export async function writeNewFile(destination: string, write: (path: string) => Promise<void>): Promise<void> {
  await refuseTaken(destination);
  const folder = await mkdtemp(join(dirname(destination), `.${basename(destination)}-`));
  try {
    const written = join(folder, 'new');
    await write(written);
    await publish(written, destination);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

async function refuseTaken(destination: string): Promise<void> {
  // lstat, not exists(): a dangling link "does not exist" to anything that follows it.
  const found = await lstat(destination).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (found) throw new DestinationTaken(destination, found.isSymbolicLink());
}

async function publish(written: string, destination: string): Promise<void> {
  try {
    await link(written, destination);
    return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (code === 'EEXIST') throw await takenNow(destination);
    if (!NO_HARD_LINKS.has(code)) throw error;
  }
  await copyToNewFile(written, destination);
}

/**
 * Copies `written` to a new file at `destination`, opened with O_CREAT |
 * O_EXCL | O_NOFOLLOW: where hard links are not to be had (writeNewFile).
 * Throws DestinationTaken when anything is there; a copy that fails midway
 * removes the file it made.
 */
export async function copyToNewFile(written: string, destination: string): Promise<void> {
  const { mode } = await stat(written);
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
  const out = await open(destination, flags, mode & 0o777).catch(async (error: NodeJS.ErrnoException) => {
    throw error.code === 'EEXIST' || error.code === 'ELOOP' ? await takenNow(destination) : error;
  });
  try {
    // The stream closes the file when it ends or fails.
    await pipeline(createReadStream(written), out.createWriteStream());
  } catch (error) {
    // Made by the open above (O_EXCL), so ours to remove: no half-written backup is left behind.
    await unlink(destination).catch(() => undefined);
    throw error;
  }
}

/** What was found at `destination` once writing there failed with EEXIST. */
async function takenNow(destination: string): Promise<DestinationTaken> {
  const found = await lstat(destination).catch(() => undefined);
  return new DestinationTaken(destination, found?.isSymbolicLink() ?? false);
}
