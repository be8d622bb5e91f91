"""RFC 36's own examples, shared by tests/test_batch.py and the real-Flux tier."""

# RFC 36's own examples: (script, what the RFC says the directives are)
RFC36 = [
    (
        "#!/bin/sh\n#FLUX: -N4                  # Request four nodes\n#FLUX: --queue=batch"
        "        # Submit to the batch queue\n#FLUX: --job-name=app001    # Set an explicit "
        "job name\nflux run -N4 app\n",
        ["-N4", "--queue=batch", "--job-name=app001"],
    ),
    (
        '#!/usr/bin/env python3\ndef main():\n    """\n    flux: -N4\n    flux: --queue=batch\n'
        '    flux: --job-name="my python job"\n     \n    # Set some arbitrary user data:\n'
        "    flux: --setattr=user.data='''\n    flux: x, y, z\n    flux: a, b, c\n    flux: '''\n"
        '    """\n    run()\n',
        [
            "-N4",
            "--queue=batch",
            "--job-name=my python job",
            "--setattr=user.data=x, y, z\na, b, c\n",
        ],
    ),
    (
        "#!/usr/bin/lua\n--\n-- flux: -N1 --exclusive\n-- flux: --output=job.out\n"
        "local app = require 'app'\napp.run()\n",
        ["-N1", "--exclusive", "--output=job.out"],
    ),
    (
        "#!/bin/sh\n# Set flux directives\n#FLUX: -N1\n# Set job name:\n#FLUX: --job-name=test\n"
        "hostname; date\n",
        ["-N1", "--job-name=test"],
    ),
    (
        '#!/usr/bin/env python3\n"""\nflux: --nodes=4\n\nSet an arbitrary value in jobspec:\n'
        'flux: --setattr=user.foo="hello, earth"\n"""\n',
        ["--nodes=4", "--setattr=user.foo=hello, earth"],
    ),
    (
        '#!/bin/sh\n# flux: --setattr=user.data=\'{"option": "arg"}\'\n',
        ['--setattr=user.data={"option": "arg"}'],
    ),
    ("#!/bin/sh\n# flux: --job-name='''It's a \"job\"'''\n", ['--job-name=It\'s a "job"']),
    (
        '#!/bin/sh\n# flux: --setattr=user.conf="""\n# flux: [config]\n# flux:   item = "foo"\n'
        '# flux: """\n',
        ['--setattr=user.conf=[config]\n  item = "foo"\n'],
    ),
]
