-- Jobspec files keep YAML (or JSON) highlighting through a compound filetype.
vim.filetype.add({
  filename = {
    ['jobspec.yaml'] = 'yaml.jobspec',
    ['jobspec.yml'] = 'yaml.jobspec',
    ['jobspec.json'] = 'json.jobspec',
  },
  pattern = {
    ['.*%.jobspec%.ya?ml'] = 'yaml.jobspec',
    ['.*%.jobspec%.json'] = 'json.jobspec',
  },
})
