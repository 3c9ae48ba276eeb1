-- wrk against fm serve (fm_serve_load.py's passes, FMServeLoadTests): every
-- connection POSTs a streamed chat completion, again once its answer has
-- ended, for the run's duration; after a 429 the next request waits the
-- Retry-After it gave, as a client that honours it does. (wrk asks delay()
-- before each request of any connection and response() after each
-- response: the waits go through a queue, so each 429 delays one next
-- request, if not always the same connection's.) Without the waits, 64
-- connections turned away in a tight loop send about 1,000 requests a
-- second, whose handling on two cores leaves llama.cpp's threads almost no
-- time: the 6 admitted requests got no token in 8 s. The response hook sorts each response:
-- a 200 whose event stream holds a finish reason and ends with [DONE] (a
-- complete answer), a 200 without them (incomplete), a 429 (with or without
-- Retry-After), any other status (by code). wrk's own summary counts the
-- socket errors (connect, read, write, timeout) and the non-2xx responses.
--
-- Usage: wrk -t T -c C -d D -s fm_serve_wrk.lua URL/v1/chat/completions -- API_KEY MODEL_NAME MAX_TOKENS
-- done() prints one line: `wrk-result: requests=N answers=N incomplete=N limited=N no_retry_after=N other=N statuses=CODE:N,...`

local threads = {}

function setup(thread)
    table.insert(threads, thread)
end

function init(args)
    wrk.method = "POST"
    wrk.headers["Content-Type"] = "application/json"
    wrk.headers["Authorization"] = "Bearer " .. args[1]
    wrk.body = '{"model": "' .. args[2] .. '", "max_tokens": ' .. args[3] .. ', "stream": true, '
        .. '"messages": [{"role": "system", "content": "You answer in a few words."}, '
        .. '{"role": "user", "content": "Name a fruit."}]}'
    answers, incomplete, limited, no_retry_after, other = 0, 0, 0, 0, 0
    statuses = {}
    waits, first_wait, next_wait = {}, 1, 1
end

function delay()
    if first_wait == next_wait then return 0 end
    local wait = waits[first_wait]
    waits[first_wait] = nil
    first_wait = first_wait + 1
    return wait
end

function response(status, headers, body)
    local wait = 0
    if status == 200 then
        -- The last chunk with a choice carries the finish reason; [DONE] ends the stream.
        local finished = body:find('"finish_reason":"[a-z_]+"') ~= nil
        local ended = body:sub(-14) == "data: [DONE]\n\n"
        if finished and ended then answers = answers + 1 else incomplete = incomplete + 1 end
    elseif status == 429 then
        limited = limited + 1
        local seconds = tonumber(headers["Retry-After"] or headers["retry-after"] or "")
        if seconds == nil then no_retry_after = no_retry_after + 1 else wait = seconds * 1000 end
    else
        other = other + 1
        statuses[status] = (statuses[status] or 0) + 1
    end
    waits[next_wait] = wait
    next_wait = next_wait + 1
end

function done(summary, latency, requests)
    local totals = { answers = 0, incomplete = 0, limited = 0, no_retry_after = 0, other = 0 }
    local codes = {}
    for _, thread in ipairs(threads) do
        for name, _ in pairs(totals) do totals[name] = totals[name] + thread:get(name) end
        for code, count in pairs(thread:get("statuses")) do codes[code] = (codes[code] or 0) + count end
    end
    local listed = {}
    for code, count in pairs(codes) do table.insert(listed, code .. ":" .. count) end
    io.write(string.format("wrk-result: requests=%d answers=%d incomplete=%d limited=%d no_retry_after=%d other=%d statuses=%s\n",
        summary.requests, totals.answers, totals.incomplete, totals.limited, totals.no_retry_after, totals.other,
        table.concat(listed, ",")))
end
