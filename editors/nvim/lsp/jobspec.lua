-- Flux jobspec language server for Neovim >= 0.11 (vim.lsp.config / vim.lsp.enable).
--
-- Put editors/nvim on your 'runtimepath' (or copy lsp/ and ftdetect/ into
-- ~/.config/nvim/), then:   vim.lsp.enable('jobspec')
-- Override anything with vim.lsp.config('jobspec', { settings = { jobspec = {...} } }).
return {
  cmd = { 'jobspec-lsp' },
  filetypes = { 'yaml.jobspec', 'json.jobspec' },
  root_markers = { 'pyproject.toml', '.git' },
  -- the server wants "yaml" or "json", not Neovim's compound filetype
  get_language_id = function(_, filetype)
    return filetype:match('^json') and 'json' or 'yaml'
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
