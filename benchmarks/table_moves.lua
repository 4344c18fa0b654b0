-- wrk script: each thread (one connection) plays its own hosted table, move after move.
-- The seat to move draws from the stock and discards its first legal discard; nobody
-- knocks, so under Scat's rules (a round whose stock runs out is void) the match never ends.
-- A thread whose match is over (or that has none yet) opens a new table, and claims its
-- second seat with the invitation the creation gave (the claim deals).
local table_id, keys, version, to_move, mover, next_move, over, invitation
local failures = 0

local function create()
  return wrk.format("POST", "/v1/tables", {["Content-Type"] = "application/json"},
    '{"variant":"scat","players":2}')
end

function request()
  if table_id == nil or over then
    return create()
  end
  if invitation ~= nil then
    return wrk.format("POST", "/v1/tables/" .. table_id .. "/seats/1",
      {["Content-Type"] = "application/json"},
      '{"name":"B","invitation":"' .. invitation .. '"}')
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
  if status == 201 and invitation == nil then
    table_id = body:match('"table":"([%w_-]+)"')
    keys = {body:match('"key":"([^"]+)"'), nil}
    invitation = body:match('"invitation":"([^"]+)"')
    return
  end
  if status == 201 then
    keys[2] = body:match('"key":"([^"]+)"')
    invitation = nil
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
