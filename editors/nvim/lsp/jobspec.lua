-- Flux jobspec language server for Neovim >= 0.11 (vim.lsp.config / vim.lsp.enable).
--
-- Put editors/nvim on your 'runtimepath' (or copy lsp/ and ftdetect/ into
-- ~/.config/nvim/), then:   vim.lsp.enable('jobspec')
-- Override anything with vim.lsp.config('jobspec', { settings = { jobspec = {...} } }).
--
-- One server serves three kinds of buffer, chosen when the buffer is opened:
--   * jobspec files by name (*.jobspec.yaml|yml|json, jobspec.yaml|yml|json: the
--     compound filetypes of ftdetect/jobspec.lua);
--   * any other YAML or JSON buffer whose top level has both `resources` and `tasks`
--     (a jobspec called job.yaml);
--   * batch scripts (sh, bash, zsh, python, lua, perl, text) holding an RFC 36 `#flux:`
--     directive or Slurm/LSF/PBS `#SBATCH`/`#BSUB`/`#PBS` lines; :JobspecShow opens the jobspec `flux batch`
--     builds for the script;
--   * shell scripts (sh, bash, zsh) that run `flux run|submit|batch|alloc|bulksubmit`:
--     those command lines are checked.
-- Other buffers of those filetypes never start the server (root_dir does not call
-- on_dir). Set vim.g.jobspec_script_patterns = { '*.flux', 'jobs/*.sh' } to attach to
-- scripts by name as well.

local SCAN = 2000 -- lines looked at when deciding

local function head(bufnr)
  local n = math.min(vim.api.nvim_buf_line_count(bufnr), SCAN)
  return vim.api.nvim_buf_get_lines(bufnr, 0, n, false)
end

local function looks_like_jobspec(lines)
  local resources, tasks = false, false
  for _, l in ipairs(lines) do
    if l:match('^resources%s*:') or l:match('^%s*"resources"%s*:') then resources = true end
    if l:match('^tasks%s*:') or l:match('^%s*"tasks"%s*:') then tasks = true end
  end
  return resources and tasks
end

local function has_directives(lines)
  for _, l in ipairs(lines) do
    -- RFC 36's sentinel, ^([^\w]*)(flux|FLUX):, or a Slurm, LSF or PBS directive
    if l:match('^[^%w_]*flux:') or l:match('^[^%w_]*FLUX:') or l:match('^#SBATCH%f[%s%z]')
      or l:match('^#BSUB%f[%s%z]') or l:match('^#PBS%f[%s%z]') then
      return true
    end
  end
  return false
end

local FLUX_COMMANDS = { 'run', 'submit', 'batch', 'alloc', 'bulksubmit' }

local function has_flux_commands(lines)
  for _, l in ipairs(lines) do
    local padded = ' ' .. l .. ' '
    for _, cmd in ipairs(FLUX_COMMANDS) do
      if padded:find('[%s;&|(`]flux%s+' .. cmd .. '%s')
          or padded:find('[%s;&|(`]flux%s+mini%s+' .. cmd .. '%s') then
        return true
      end
    end
  end
  return false
end

local SHELLS = { sh = true, bash = true, zsh = true }

local function by_pattern(bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr)
  for _, glob in ipairs(vim.g.jobspec_script_patterns or {}) do
    local re = vim.glob.to_lpeg(glob)
    if re:match(name) or re:match(vim.fs.basename(name)) then return true end
  end
  return false
end

local function wanted(bufnr)
  local ft = vim.bo[bufnr].filetype
  if ft:match('%.jobspec$') then return true end
  if ft == 'yaml' or ft == 'json' then return looks_like_jobspec(head(bufnr)) end
  if by_pattern(bufnr) then return true end
  local lines = head(bufnr)
  return has_directives(lines) or (SHELLS[ft] == true and has_flux_commands(lines))
end

local LANGUAGE_IDS = { sh = 'shellscript', bash = 'shellscript', zsh = 'shellscript',
                       text = 'plaintext' }

local function show_jobspec(client, bufnr, format)
  local params = { command = 'jobspec.showJobspec',
                   arguments = { vim.uri_from_bufnr(bufnr), format or 'yaml' } }
  client:request('workspace/executeCommand', params, function(err, res)
    if err or not res or res.error then
      vim.notify('jobspec: ' .. (err and err.message or (res and res.error) or 'no answer'),
                 vim.log.levels.WARN)
      return
    end
    vim.cmd('new')
    local out = vim.api.nvim_get_current_buf()
    vim.api.nvim_buf_set_lines(out, 0, -1, false, vim.split(res.text, '\n', { plain = true }))
    vim.bo[out].buftype = 'nofile'
    vim.bo[out].bufhidden = 'wipe'
    vim.bo[out].filetype = res.language
    vim.bo[out].modifiable = false
  end, bufnr)
end

return {
  cmd = { 'jobspec-lsp' },
  filetypes = { 'yaml.jobspec', 'json.jobspec', 'yaml', 'json',
                'sh', 'bash', 'zsh', 'python', 'lua', 'perl', 'text' },
  root_dir = function(bufnr, on_dir)
    if wanted(bufnr) then
      on_dir(vim.fs.root(bufnr, { 'pyproject.toml', '.git' }) or vim.fn.getcwd())
    end
  end,
  -- the server wants "yaml"/"json" for jobspec, the script's language otherwise
  get_language_id = function(_, filetype)
    if filetype:match('^json') then return 'json' end
    if filetype:match('^yaml') then return 'yaml' end
    return LANGUAGE_IDS[filetype] or filetype
  end,
  on_attach = function(client, bufnr)
    if not vim.bo[bufnr].filetype:match('^yaml') and not vim.bo[bufnr].filetype:match('^json') then
      vim.api.nvim_buf_create_user_command(bufnr, 'JobspecShow', function(o)
        show_jobspec(client, bufnr, o.args ~= '' and o.args or nil)
      end, { nargs = '?', complete = function() return { 'yaml', 'json' } end,
             desc = 'Show the jobspec flux batch builds for this script' })
    end
  end,
  settings = {
    jobspec = {
      -- select = { 'JS2', 'JS3' },
      -- ignore = { 'JS8' },
      -- versionRules = 'auto',        -- or 'canonical' / 'v1'
      -- target = 'flux-core',         -- or 'rfc' / 'flux-core-any' / 'fluxion'
      -- files = { '*.jobspec.yaml', 'jobspec.yaml' },
      -- format = { sortKeys = true },
    },
  },
}
