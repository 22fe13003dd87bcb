-- cairn heartbeat load: rotates over N registered peers, one POST each
local n = 0
local peers = tonumber(os.getenv("PEERS") or "2000")
local token = os.getenv("TOKEN")
wrk.method = "POST"
wrk.headers["Authorization"] = "Bearer " .. token
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"state":"RUNNING","freeBytes":1000000000,"usedBytes":0}'
function delay()
  return 10
end
request = function()
  n = n + 1
  return wrk.format(nil, "/api/v1/peers/load-" .. (n % peers) .. "/heartbeat")
end
