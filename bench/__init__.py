"""On-demand benchmarks (not unit tests): ``python -m bench.<name>``; see bench/README.md."""
