-- GET PATH_ with TOKEN and an X-Purpose: one read of the journal (scenario 3).
wrk.method = "GET"
wrk.headers["Authorization"] = "Bearer " .. os.getenv("TOKEN")
wrk.headers["X-Purpose"] = "Catch up before the next step"
request = function()
  return wrk.format(nil, os.getenv("PATH_"))
end
