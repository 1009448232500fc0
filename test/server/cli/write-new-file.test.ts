import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyToNewFile, DestinationTaken, writeNewFile } from '../../../server/cli/write-new-file.js';

/** A folder of the test's own, and in it a path for the new file and one a planted link points to. */
function place() {
  const folder = mkdtempSync(join(tmpdir(), 'write-new-file-test-'));
  return { folder, destination: join(folder, 'backup.db'), target: join(folder, 'target-of-the-link') };
}

describe('writeNewFile, which clinic backup writes its copy with', () => {
  it('puts the written file at the destination and leaves nothing else behind', async () => {
    const { folder, destination } = place();

    await writeNewFile(destination, (path) => writeFile(path, 'the copy'));

    expect(readFileSync(destination, 'utf8')).toBe('the copy');
    expect(readdirSync(folder)).toEqual(['backup.db']);
  });

  it('refuses a symbolic link made at the destination while the file was being written, writing nothing through it', async () => {
    const { folder, destination, target } = place();

    const writing = writeNewFile(destination, async (path) => {
      // The race: the destination was free when checked, and a link appears before the copy is in place.
      symlinkSync(target, destination);
      await writeFile(path, 'the copy');
    });

    await expect(writing).rejects.toThrow(new DestinationTaken(destination, true));
    expect(existsSync(target)).toBe(false);
    expect(readlinkSync(destination)).toBe(target);
    expect(readdirSync(folder)).toEqual(['backup.db']);
  });

  it('refuses a file made at the destination while the copy was being written, leaving it as it was', async () => {
    const { folder, destination } = place();

    const writing = writeNewFile(destination, async (path) => {
      writeFileSync(destination, 'precious');
      await writeFile(path, 'the copy');
    });

    await expect(writing).rejects.toThrow(new DestinationTaken(destination, false));
    expect(readFileSync(destination, 'utf8')).toBe('precious');
    expect(readdirSync(folder)).toEqual(['backup.db']);
  });

  it('refuses a dangling symbolic link before writing anything', async () => {
    const { destination, target } = place();
    symlinkSync(target, destination);
    let written = false;

    const writing = writeNewFile(destination, async () => void (written = true));

    await expect(writing).rejects.toThrow(new DestinationTaken(destination, true));
    expect(written).toBe(false);
    expect(existsSync(target)).toBe(false);
  });
});

describe('copyToNewFile, where the file system has no hard links', () => {
  it('copies into a new file', async () => {
    const { folder, destination } = place();
    const written = join(folder, 'written');
    writeFileSync(written, 'the copy');

    await copyToNewFile(written, destination);

    expect(readFileSync(destination, 'utf8')).toBe('the copy');
  });

  it('refuses a dangling symbolic link, creating nothing at its target', async () => {
    const { folder, destination, target } = place();
    const written = join(folder, 'written');
    writeFileSync(written, 'the copy');
    symlinkSync(target, destination);

    await expect(copyToNewFile(written, destination)).rejects.toThrow(new DestinationTaken(destination, true));
    expect(existsSync(target)).toBe(false);
  });

  it('refuses a file that exists, leaving it as it was', async () => {
    const { folder, destination } = place();
    const written = join(folder, 'written');
    writeFileSync(written, 'the copy');
    writeFileSync(destination, 'precious');

    await expect(copyToNewFile(written, destination)).rejects.toThrow(new DestinationTaken(destination, false));
    expect(readFileSync(destination, 'utf8')).toBe('precious');
  });
});
