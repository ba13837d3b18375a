import sys

from jaxcheck.cli import main

sys.exit(main())
