-- Drives Neovim like a user with batch scripts: the shipped editors/nvim config
-- attaches to a shell script with #flux: directives (diagnostics, completion,
-- hover, a quick-fix, :JobspecShow), to a jobspec named job.yaml by its content,
-- and not to a script without directives. Writes what it saw to $JOBSPEC_OUT.
local repo = os.getenv('JOBSPEC_REPO')
local out_path = os.getenv('JOBSPEC_OUT')
local dir = os.getenv('JOBSPEC_DIR')
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

local function attached(buf)
  return vim.wait(20000, function() return #vim.lsp.get_clients({ bufnr = buf }) > 0 end, 50)
end

local ok, err = pcall(function()
  vim.cmd('edit ' .. dir .. '/sim.sh')
  local buf = vim.api.nvim_get_current_buf()
  result.filetype = vim.bo[buf].filetype
  assert(attached(buf), 'the server did not attach to the script')
  local client = vim.lsp.get_clients({ bufnr = buf })[1]
  local uri = vim.uri_from_bufnr(buf)
  assert(vim.wait(20000, function() return #vim.diagnostic.get(buf) >= 1 end, 50), 'no diagnostics')
  result.diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(result.diagnostics, { code = d.code, lnum = d.lnum, col = d.col,
                                       end_col = d.end_col, message = d.message })
  end
  table.insert(result.steps, 'diagnostics')

  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  local function at(needle, delta)
    for i, l in ipairs(lines) do
      local c = l:find(needle, 1, true)
      if c then return { line = i - 1, character = c - 1 + (delta or 0) } end
    end
  end
  -- completion of a value: the queue named in pyproject.toml
  local comp = vim.lsp.buf_request_sync(buf, 'textDocument/completion',
    { textDocument = { uri = uri }, position = at('--queue=d', 9) }, 10000)
  result.completion = {}
  for _, r in pairs(comp or {}) do
    local items = r.result and (r.result.items or r.result) or {}
    for _, it in ipairs(items) do table.insert(result.completion, it.label) end
  end
  table.insert(result.steps, 'completion')

  local hover = vim.lsp.buf_request_sync(buf, 'textDocument/hover',
    { textDocument = { uri = uri }, position = at('-N2', 1) }, 10000)
  for _, r in pairs(hover or {}) do
    if r.result then result.hover = r.result.contents.value end
  end
  table.insert(result.steps, 'hover')

  local target
  for _, d in ipairs(vim.diagnostic.get(buf)) do if d.code == 'JS570' then target = d end end
  local actions = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', {
    textDocument = { uri = uri },
    range = { start = { line = target.lnum, character = target.col },
              ['end'] = { line = target.end_lnum, character = target.end_col } },
    context = { diagnostics = { target.user_data.lsp } },
  }, 10000)
  for _, r in pairs(actions or {}) do
    for _, a in ipairs(r.result or {}) do
      if a.isPreferred then
        result.action = a.title
        vim.lsp.util.apply_workspace_edit(a.edit, client.offset_encoding)
      end
    end
  end
  result.after_fix = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n')
  assert(vim.wait(10000, function()
    for _, d in ipairs(vim.diagnostic.get(buf)) do if d.code == 'JS570' then return false end end
    return true
  end, 50), 'JS570 still reported after the fix')
  table.insert(result.steps, 'quickfix')

  -- :JobspecShow opens the jobspec in a new window
  vim.cmd('JobspecShow')
  assert(vim.wait(10000, function() return vim.api.nvim_get_current_buf() ~= buf end, 50),
         ':JobspecShow opened nothing')
  local shown = vim.api.nvim_get_current_buf()
  result.shown_filetype = vim.bo[shown].filetype
  result.shown = table.concat(vim.api.nvim_buf_get_lines(shown, 0, -1, false), '\n')
  vim.cmd('close')
  table.insert(result.steps, 'show')

  -- a jobspec named job.yaml: attached by its content
  vim.cmd('edit ' .. dir .. '/job.yaml')
  local yb = vim.api.nvim_get_current_buf()
  result.yaml_attached = attached(yb)
  assert(vim.wait(20000, function() return #vim.diagnostic.get(yb) >= 1 end, 50),
         'no diagnostics for job.yaml')
  result.yaml_codes = {}
  for _, d in ipairs(vim.diagnostic.get(yb)) do table.insert(result.yaml_codes, d.code) end

  -- a shell script without directives that runs flux: its command lines are checked
  vim.cmd('edit ' .. dir .. '/runs.sh')
  local rb = vim.api.nvim_get_current_buf()
  result.runs_attached = attached(rb)
  assert(vim.wait(20000, function() return #vim.diagnostic.get(rb) >= 1 end, 50),
         'no diagnostics for runs.sh')
  result.runs_codes = {}
  for _, d in ipairs(vim.diagnostic.get(rb)) do table.insert(result.runs_codes, d.code) end

  -- an LSF script (no #flux: line) attaches too: its directives' Flux form, and the
  -- whole conversion as one code action
  vim.cmd('edit ' .. dir .. '/job.lsf.sh')
  local lb = vim.api.nvim_get_current_buf()
  result.lsf_attached = attached(lb)
  assert(vim.wait(20000, function() return #vim.diagnostic.get(lb) >= 1 end, 50),
         'no diagnostics for job.lsf.sh')
  result.lsf_codes = {}
  for _, d in ipairs(vim.diagnostic.get(lb)) do table.insert(result.lsf_codes, d.code) end
  local acts = vim.lsp.buf_request_sync(lb, 'textDocument/codeAction', {
    textDocument = { uri = vim.uri_from_bufnr(lb) },
    range = { start = { line = 3, character = 0 }, ['end'] = { line = 3, character = 0 } },
    context = { diagnostics = {} },
  }, 10000)
  result.lsf_actions = {}
  for _, r in pairs(acts or {}) do
    for _, a in ipairs(r.result or {}) do table.insert(result.lsf_actions, a.title) end
  end

  -- neither a plain script nor other YAML start anything
  vim.cmd('edit ' .. dir .. '/plain.sh')
  local pb = vim.api.nvim_get_current_buf()
  vim.wait(1000, function() return false end, 50)
  result.plain_attached = #vim.lsp.get_clients({ bufnr = pb }) > 0
  vim.cmd('edit ' .. dir .. '/other.yaml')
  local ob = vim.api.nvim_get_current_buf()
  vim.wait(1000, function() return false end, 50)
  result.other_attached = #vim.lsp.get_clients({ bufnr = ob }) > 0
end)
if not ok then result.error = tostring(err) end
done()
