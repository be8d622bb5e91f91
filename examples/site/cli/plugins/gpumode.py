"""An example of a site's own Flux CLI plugin (flux.cli.plugin.CLIPlugin): it adds
--site-gpumode to flux run, submit, batch and alloc. jobspec-lsp reads the options such a
plugin adds without running it (docs/site.md)."""

from flux.cli.plugin import CLIPlugin


class GpuMode(CLIPlugin):
    def __init__(self, prog, prefix="site"):
        super().__init__(prog, prefix=prefix)
        self.add_option("--gpumode", metavar="MODE", choices=["CPX", "SPX", "TPX"],
                        help="the GPU partition mode of the job's nodes")

    def preinit(self, args):
        pass

    def modify_jobspec(self, args, jobspec):
        if args.site_gpumode:
            jobspec.setattr_shell_option("gpumode", args.site_gpumode)
