"""The fit: a platform's own profile found from its records (docs/fit.md).

A package above the engine: it plays each record again under the values it tries, through the
engine's public faces only (`audit.play`, `audit.api`, the vocabulary), and is used by the service
(web/fit.py) and its own command line (`python -m fit`, fit/cli.py). `fit.search` is the search,
`fit.answers` a record's answer under one profile and when it holds under another,
`fit.profile_toml` the fitted profile as a profile file, `fit.api` the fit as JSON for the service.
"""
