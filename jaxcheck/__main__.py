from jaxcheck.cli import program

program()
