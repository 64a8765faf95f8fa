-- Drives `nazm lsp` from Neovim's own LSP client, headless, started with
-- `-u NONE`: opens main.nz, types an error, waits for its diagnostic,
-- applies the code action, renames, formats, and records the buffer's text
-- after each step. The Deno test (tests/lsp/neovim_test.ts) checks them.
-- NAZM_LSP_CMD: the server's argv as JSON; NAZM_WS: the workspace folder;
-- NAZM_OUT: where the steps are written, as JSON.
local steps = {}
local function record(name, value) steps[#steps + 1] = { step = name, value = value } end

local function run()
  local cmd = vim.fn.json_decode(os.getenv("NAZM_LSP_CMD"))
  local ws = os.getenv("NAZM_WS")
  vim.cmd("edit " .. vim.fn.fnameescape(ws .. "/main.nz"))
  local buf = vim.api.nvim_get_current_buf()
  local client_id = vim.lsp.start_client({
    name = "nazm",
    cmd = cmd,
    root_dir = ws,
    flags = { debounce_text_changes = 0 },
  })
  assert(client_id, "the client did not start")
  vim.lsp.buf_attach_client(buf, client_id)
  local client = vim.lsp.get_client_by_id(client_id)
  assert(vim.wait(20000, function() return client.initialized end, 20), "no initialize answer")
  local function text() return table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n") end
  local function codes()
    local out = {}
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
      out[#out + 1] = code
    end
    table.sort(out)
    return out
  end
  record("version", vim.version())
  record("server", client.server_capabilities and client.server_capabilities.renameProvider ~= nil)

  -- Type an error: `bump(41)` becomes `bum(41)` (delete one character, as a key press would).
  local row, col
  for i, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    local at = line:find("bump%(41%)")
    if at then row, col = i - 1, at - 1 end
  end
  vim.api.nvim_buf_set_text(buf, row, col + 3, row, col + 4, { "" })
  record("typed", text())
  assert(vim.wait(20000, function() return vim.tbl_contains(codes(), "N0201") end, 20), "no N0201")
  record("diagnostics", codes())

  -- The code action for it, planned on resolve when the edit is not in the answer.
  vim.api.nvim_win_set_cursor(0, { row + 1, col + 1 })
  local params = vim.lsp.util.make_range_params()
  params.context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(buf, row) }
  local answer = client.request_sync("textDocument/codeAction", params, 20000, buf)
  assert(answer and answer.result, "no code actions: " .. vim.inspect(answer))
  local chosen
  for _, action in ipairs(answer.result) do
    if action.title == "use `bump`" then chosen = action end
  end
  assert(chosen, "no `use bump` action: " .. vim.inspect(answer.result))
  if not chosen.edit then
    local resolved = client.request_sync("codeAction/resolve", chosen, 20000, buf)
    assert(resolved and resolved.result, "resolve failed: " .. vim.inspect(resolved))
    chosen = resolved.result
  end
  vim.lsp.util.apply_workspace_edit(chosen.edit, client.offset_encoding or "utf-16")
  record("fixed", text())
  assert(vim.wait(20000, function() return not vim.tbl_contains(codes(), "N0201") end, 20), "N0201 stays")
  record("diagnostics_after_fix", codes())

  -- Rename `bump` where it is called, through Neovim's own rename.
  vim.api.nvim_win_set_cursor(0, { row + 1, col + 1 })
  vim.lsp.buf.rename("increment")
  assert(vim.wait(20000, function() return text():find("increment%(41%)") ~= nil end, 20), "no rename")
  record("renamed", text())

  -- Untidy a line, then format the document.
  for i, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    local at = line:find("n %+ 1")
    if at then vim.api.nvim_buf_set_text(buf, i - 1, at, i - 1, at, { "   " }) end
  end
  record("untidy", text())
  if vim.lsp.buf.format then
    vim.lsp.buf.format({ timeout_ms = 20000 })
  else
    vim.lsp.buf.formatting_sync(nil, 20000)
  end
  record("formatted", text())
end

local ok, err = pcall(run)
if not ok then record("error", tostring(err)) end
local file = io.open(os.getenv("NAZM_OUT"), "w")
file:write(vim.fn.json_encode(steps))
file:close()
vim.cmd(ok and "qa!" or "cq!")
