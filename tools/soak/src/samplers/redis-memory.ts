import type Redis from 'ioredis';

export interface RedisSample {
  usedMemoryMb: number;
  /** The server process's resident memory as Redis reports it (allocator overhead, fragmentation). */
  rssMb: number;
  keys: number;
}

const field = (info: string, name: string): number => {
  const match = new RegExp(`^${name}:(\\d+)`, 'm').exec(info);
  return match ? Number(match[1]) : Number.NaN;
};

export async function redisMemory(redis: Redis): Promise<RedisSample> {
  const [info, keys] = await Promise.all([redis.info('memory'), redis.dbsize()]);
  return {
    usedMemoryMb: field(info, 'used_memory') / 2 ** 20,
    rssMb: field(info, 'used_memory_rss') / 2 ** 20,
    keys,
  };
}
