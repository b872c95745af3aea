/**
 * Which Redis database (1 to 15; 0 is left to `npm start`) this jest worker process uses. A test
 * may flush its database or clear the gateway's limiter keys, so no two processes that run tests at
 * the same time may share one: `npm test` runs several workspaces' jest at once, each with its own
 * workers, so JEST_WORKER_ID alone no longer tells them apart. A worker process claims a database
 * with a marker file `<database>.<pid>` and keeps it while it lives: it takes a database no live
 * process marks, and backs off when another process marked the same one at the same moment. A
 * marker whose process is gone is removed by whoever sees it (jest may end a worker before it can
 * clean up), and only that process's own name is ever removed, so no claim is lost to a race.
 */
const { createHash } = require('node:crypto');
const { closeSync, mkdirSync, openSync, readdirSync, unlinkSync } = require('node:fs');
const { tmpdir } = require('node:os');
const path = require('node:path');

const DATABASES = Array.from({ length: 15 }, (_, index) => index + 1);

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** The markers in the folder: which process marks which database. */
function markers(dir) {
  return readdirSync(dir)
    .map((name) => /^(\d+)\.(\d+)$/.exec(name))
    .filter((match) => match !== null)
    .map((match) => ({ file: path.join(dir, match[0]), database: Number(match[1]), pid: Number(match[2]) }));
}

function remove(file) {
  try {
    unlinkSync(file);
  } catch {
    // someone else removed it first
  }
}

/** Live markers of a database by other processes, after removing the ones whose process is gone. */
function otherHolders(dir, database) {
  return markers(dir)
    .filter((marker) => marker.database === database && marker.pid !== process.pid)
    .filter((marker) => {
      if (isAlive(marker.pid)) return true;
      remove(marker.file);
      return false;
    });
}

/** The database this process holds, claiming a free one the first time. */
function claimRedisDatabase(redisBase) {
  const dir = path.join(
    tmpdir(),
    `starsgate-redis-databases-${createHash('sha1').update(redisBase).digest('hex').slice(0, 12)}`,
  );
  mkdirSync(dir, { recursive: true });
  const held = markers(dir).find((marker) => marker.pid === process.pid);
  if (held) return held.database;
  for (const database of DATABASES) {
    if (otherHolders(dir, database).length > 0) continue;
    const mine = path.join(dir, `${database}.${process.pid}`);
    closeSync(openSync(mine, 'w'));
    if (otherHolders(dir, database).length === 0) return database;
    remove(mine);
  }
  throw new Error(
    `every Redis database 1-15 of ${redisBase} is held by a running test process (markers in ${dir}); ` +
      'run fewer jest processes at once or set TEST_REDIS_URL',
  );
}

module.exports = { claimRedisDatabase };
