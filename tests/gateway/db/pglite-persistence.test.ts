import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { migrate } from '../../../gateway/db/migrate';
import { openPglite } from '../../../gateway/db/open-pglite';

const dataDir = await mkdtemp(join(tmpdir(), 'gateway-pglite-'));
afterAll(() => rm(dataDir, { recursive: true, force: true }));

// DESIGN "The real parts": `npm start` keeps data across restarts in a folder on disk.
it('keeps data in its data directory across close and reopen', async () => {
  const first = await openPglite(join(dataDir, 'db'));
  await migrate(first);
  await first.query("insert into users (email, password_hash, dob) values ('ana@example.com', 'x', '1990-05-17')");
  await first.close();

  const reopened = await openPglite(join(dataDir, 'db'));
  expect(await migrate(reopened)).toEqual([]);
  const { rows } = await reopened.query('select email, dob from users');
  expect(rows).toEqual([{ email: 'ana@example.com', dob: '1990-05-17' }]);
  await reopened.close();
});
