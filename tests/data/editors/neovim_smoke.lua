-- Neovim's own LSP client against `replaylint server` (tests/test_server_neovim.py): open a
-- script with a replay problem, wait for the diagnostic, list the code actions at it, apply the
-- first fix, wait for the diagnostics to clear. Written for Neovim 0.7 and newer.
local client_id = vim.lsp.start_client({
  name = "replaylint",
  cmd = { vim.env.REPLAYLINT, "server" },
  root_dir = vim.env.PROJECT,
})
vim.cmd("edit " .. vim.env.PROJECT .. "/serve.sh")
local buf = vim.api.nvim_get_current_buf()
vim.lsp.buf_attach_client(buf, client_id)
local ok = vim.wait(10000, function() return #vim.diagnostic.get(buf) > 0 end, 100)
local out = {}
for _, d in ipairs(vim.diagnostic.get(buf)) do
  table.insert(out, string.format("%d:%d %s %s", d.lnum + 1, d.col + 1, d.code or "", d.message))
end
-- ask for the code actions at the diagnostic and apply the first fix
vim.api.nvim_win_set_cursor(0, {1, 15})
local params = vim.lsp.util.make_range_params()
params.context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(buf) }
local results = vim.lsp.buf_request_sync(buf, "textDocument/codeAction", params, 5000)
local titles = {}
for _, r in pairs(results or {}) do
  for _, action in ipairs(r.result or {}) do
    table.insert(titles, action.title)
    if action.edit and not _G.applied then
      vim.lsp.util.apply_workspace_edit(action.edit, "utf-16")
      _G.applied = action.title
    end
  end
end
local cleared = vim.wait(10000, function() return #vim.diagnostic.get(buf) == 0 end, 100)
local f = io.open(vim.env.PROJECT .. "/result.txt", "w")
f:write("diagnostics: " .. table.concat(out, " | ") .. "\n")
f:write("actions: " .. table.concat(titles, " | ") .. "\n")
f:write("applied: " .. tostring(_G.applied) .. "\n")
f:write("buffer: " .. table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\\n") .. "\n")
f:write("cleared after fix: " .. tostring(cleared) .. "\n")
f:close()
vim.cmd("qa!")
