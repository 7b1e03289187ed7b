/**
 * The Lua scripts of the Redis task store: each change of a task is one script, so it is atomic
 * across replicas. A task is a hash: `rec` (the fixed part, JSON), `status`, `upd`, `exp` (expiry
 * in ms, "" for never), `msg`, `result`/`error` (JSON), `cancel`, the lease `lh`/`lx`, and one
 * field per question (`q:<key>`) and answer (`a:<key>`). KEYS[1] is the task, KEYS[2] the lease
 * index; ARGV[1] is the clock (ms) and ARGV[2] the task id.
 */
const PRELUDE = `
local function live()
  local status = redis.call('HGET', KEYS[1], 'status')
  if not status then return nil end
  local exp = redis.call('HGET', KEYS[1], 'exp')
  if exp and exp ~= '' and tonumber(exp) <= tonumber(ARGV[1]) then return nil end
  return status
end
local function terminal(s) return s == 'completed' or s == 'failed' or s == 'cancelled' end
`;

/**
 * ARGV[3]: the lease holder the change needs ("" for any); ARGV[4]: an event to append to the
 * stream KEYS[3] when the change is applied ("" for none: the outcome and its \`task-status\` event
 * in one step, one write to the append-only file); ARGV[5]: the stream's approximate length;
 * ARGV[6..]: field/value pairs to set on a live, non-terminal task. Returns {1 when applied else
 * 0, the hash} (or nil).
 */
export const CHANGE = `${PRELUDE}
local status = live()
if not status then return nil end
if terminal(status) or #ARGV < 7 then return {0, redis.call('HGETALL', KEYS[1])} end
if ARGV[3] ~= '' and redis.call('HGET', KEYS[1], 'lh') ~= ARGV[3] then
  return {0, redis.call('HGETALL', KEYS[1])}
end
do
  redis.call('HSET', KEYS[1], unpack(ARGV, 6))
  if terminal(redis.call('HGET', KEYS[1], 'status')) then
    redis.call('HDEL', KEYS[1], 'lh', 'lx')
    redis.call('ZREM', KEYS[2], ARGV[2])
  end
  if ARGV[4] ~= '' then redis.call('XADD', KEYS[3], 'MAXLEN', '~', ARGV[5], '*', 'e', ARGV[4]) end
end
return {1, redis.call('HGETALL', KEYS[1])}
`;

/** ARGV[3]: lastUpdatedAt; ARGV[4..]: key/answer pairs. Returns {accepted keys, hash} (or nil). */
export const ANSWER = `${PRELUDE}
local status = live()
if not status then return nil end
local accepted = {}
if not terminal(status) then
  for i = 4, #ARGV, 2 do
    if redis.call('HDEL', KEYS[1], 'q:' .. ARGV[i]) == 1 then
      redis.call('HSET', KEYS[1], 'a:' .. ARGV[i], ARGV[i + 1])
      table.insert(accepted, ARGV[i])
    end
  end
  if #accepted > 0 then
    redis.call('HSET', KEYS[1], 'upd', ARGV[3])
    local left = false
    for _, field in ipairs(redis.call('HKEYS', KEYS[1])) do
      if string.sub(field, 1, 2) == 'q:' then left = true break end
    end
    if not left and status == 'input_required' then redis.call('HSET', KEYS[1], 'status', 'working') end
  end
end
return {accepted, redis.call('HGETALL', KEYS[1])}
`;

/**
 * ARGV[3]: holder; ARGV[4]: the lease's expiry (ms); ARGV[5]: acquire, renew or release.
 * Returns the expiry when `holder` holds the lease afterwards, else nil.
 */
export const LEASE = `${PRELUDE}
local status = live()
if not status or terminal(status) then return nil end
local holder = redis.call('HGET', KEYS[1], 'lh')
local held = tonumber(redis.call('HGET', KEYS[1], 'lx') or '0')
local mode = ARGV[5]
if mode == 'release' then
  if holder == ARGV[3] then
    redis.call('HDEL', KEYS[1], 'lh', 'lx')
    redis.call('ZREM', KEYS[2], ARGV[2])
  end
  return nil
end
local may = holder == ARGV[3]
if mode == 'acquire' and (not holder or held <= tonumber(ARGV[1])) then may = true end
if not may then return nil end
redis.call('HSET', KEYS[1], 'lh', ARGV[3], 'lx', ARGV[4])
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[2])
return ARGV[4]
`;

/**
 * Creates a task: KEYS[1] the task, KEYS[2] its owner's index, KEYS[3] the sequence that orders
 * the index (the clock's milliseconds tie), KEYS[4] the lease index; ARGV: task id, rec, status,
 * upd, exp, keep-for (ms, or ""), lease holder ("" for none), lease expiry (ms).
 */
export const CREATE = `
local seq = redis.call('INCR', KEYS[3])
redis.call('HSET', KEYS[1], 'rec', ARGV[2], 'status', ARGV[3], 'upd', ARGV[4], 'exp', ARGV[5])
if ARGV[7] ~= '' then
  redis.call('HSET', KEYS[1], 'lh', ARGV[7], 'lx', ARGV[8])
  redis.call('ZADD', KEYS[4], ARGV[8], ARGV[1])
end
if ARGV[6] ~= '' then redis.call('PEXPIRE', KEYS[1], ARGV[6]) end
redis.call('ZADD', KEYS[2], seq, ARGV[1])
return seq
`;
