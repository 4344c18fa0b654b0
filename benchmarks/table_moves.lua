-- wrk script: each thread (one connection) plays its own hosted table, move after move.
-- The seat to move draws from the stock and discards its first legal discard; nobody
-- knocks, so under Scat's rules (a round whose stock runs out is void) the match never ends.
-- A thread whose match is over (or that has none yet) opens a new table.
local table_id, keys, version, to_move, mover, next_move, over
local failures = 0

local function create()
  return wrk.format("POST", "/v1/tables", {["Content-Type"] = "application/json"},
    '{"variant":"scat","players":2}')
end

function request()
  if table_id == nil or over then
    return create()
  end
  local seat, move
  if to_move == nil then
    seat, move = 0, '{"type":"next_round"}'
  elseif mover == to_move and next_move ~= nil then
    seat, move = to_move, next_move
  else
    seat, move = to_move, '{"type":"draw","source":"stock"}'
  end
  return wrk.format("POST", "/v1/tables/" .. table_id .. "/moves",
    {["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. keys[seat + 1]},
    '{"move":' .. move .. ',"version":' .. version .. '}')
end

function response(status, headers, body)
  if status ~= 200 and status ~= 201 then
    failures = failures + 1
    over = true -- start afresh on a new table
    return
  end
  if status == 201 then
    table_id = body:match('"table":"([%w_-]+)"')
    local first, second = body:match(
      '"seats":%[{"seat":0,"bot":null,"key":"([^"]+)"},{"seat":1,"bot":null,"key":"([^"]+)"}')
    keys = {first, second}
  end
  version = tonumber(body:match('"version":(%d+)'))
  local seat_to_move = body:match('"to_move":(%d+)')
  to_move = seat_to_move and tonumber(seat_to_move) or nil
  local asking = body:match('"seed_sha256":"%x+","seat":(%d+)')
  mover = asking and tonumber(asking) or nil
  local legal = body:match('"legal_moves":(%b[])')
  next_move = legal and legal:match('({"type":"discard".-})') or nil
  over = body:find('"is_over":true', 1, true) ~= nil
end
