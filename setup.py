"""Builds the double-dummy solver's compiled core; everything else is in pyproject.toml.

``optional=True``: on a machine with no C compiler the install still succeeds and the
solver runs in pure Python (much slower; the expert then searches less).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "engine.ai._dds",
            sources=["engine/ai/_dds.c"],
            extra_compile_args=["-O3", "-ffp-contract=off"],
            libraries=["m"],
            optional=True,
        )
    ]
)
