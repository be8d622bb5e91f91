-- Drives Neovim like a user: loads the shipped editors/nvim config, opens a
-- jobspec, waits for diagnostics, hovers, applies a quick-fix, formats, and
-- writes what it saw to $JOBSPEC_OUT as JSON.
local repo = os.getenv('JOBSPEC_REPO')
local out_path = os.getenv('JOBSPEC_OUT')
local file = os.getenv('JOBSPEC_FILE')
vim.opt.runtimepath:prepend(repo .. '/editors/nvim')
vim.cmd('runtime! ftdetect/*.lua')
vim.lsp.enable('jobspec')

local result = { steps = {} }
local function done()
  local fh = io.open(out_path, 'w')
  fh:write(vim.json.encode(result))
  fh:close()
  vim.cmd('qa!')
end

local ok, err = pcall(function()
  vim.cmd('edit ' .. file)
  local buf = vim.api.nvim_get_current_buf()
  result.filetype = vim.bo[buf].filetype
  assert(vim.wait(20000, function() return #vim.lsp.get_clients({ bufnr = buf }) > 0 end, 50),
         'the jobspec server did not attach')
  local client = vim.lsp.get_clients({ bufnr = buf })[1]
  result.encoding = client.offset_encoding
  assert(vim.wait(20000, function() return #vim.diagnostic.get(buf) >= 3 end, 50), 'no diagnostics')
  result.diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(result.diagnostics, { code = d.code, lnum = d.lnum, col = d.col,
                                       end_lnum = d.end_lnum, end_col = d.end_col,
                                       severity = d.severity, message = d.message })
  end
  table.insert(result.steps, 'diagnostics')

  -- hover on the node type
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  local row
  for i, l in ipairs(lines) do if l:match('type: node') then row = i - 1 end end
  local params = { textDocument = { uri = vim.uri_from_bufnr(buf) },
                   position = { line = row, character = lines[row + 1]:find('node') - 1 } }
  local hover = vim.lsp.buf_request_sync(buf, 'textDocument/hover', params, 10000)
  for _, r in pairs(hover or {}) do
    if r.result then result.hover = r.result.contents.value end
  end
  table.insert(result.steps, 'hover')

  -- the preferred quick-fix for the unknown slot label
  local target
  for _, d in ipairs(vim.diagnostic.get(buf)) do if d.code == 'JS307' then target = d end end
  local cparams = {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    range = { start = { line = target.lnum, character = target.col },
              ['end'] = { line = target.end_lnum, character = target.end_col } },
    context = { diagnostics = { target.user_data.lsp } },
  }
  local actions = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', cparams, 10000)
  for _, r in pairs(actions or {}) do
    for _, a in ipairs(r.result or {}) do
      if a.isPreferred then
        result.action = a.title
        vim.lsp.util.apply_workspace_edit(a.edit, client.offset_encoding)
      end
    end
  end
  result.after_fix = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n')
  table.insert(result.steps, 'quickfix')

  -- formatting through the server
  vim.lsp.buf.format({ bufnr = buf, async = false, timeout_ms = 10000 })
  result.after_format = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n')
  table.insert(result.steps, 'format')

  -- diagnostics follow the edits
  assert(vim.wait(10000, function()
    for _, d in ipairs(vim.diagnostic.get(buf)) do if d.code == 'JS307' then return false end end
    return true
  end, 50), 'JS307 still reported after the fix')
  result.codes_after = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do table.insert(result.codes_after, d.code) end
end)
if not ok then result.error = tostring(err) end
done()
