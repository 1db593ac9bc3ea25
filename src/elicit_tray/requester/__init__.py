"""The parts of the requester side (no Qt), one job each. Import them from
:mod:`elicit_tray.client`, the public API, which re-exports them:

- :mod:`.errors`: :class:`~.errors.TrayError`, :class:`~.errors.TrayUnavailable`.
- :mod:`.trust`: :func:`~.trust.open_connection`, the only way to the socket (the user's own).
- :mod:`.launch`: :func:`~.launch.ensure_running` (start the tray app when nobody answers).
- :mod:`.calls`: :func:`~.calls.request`, :func:`~.calls.notify` (one call per connection).
- :mod:`.completions`: :class:`~.completions.Completions` (URL elicitations waiting for their
  completion notice on their own connection).
"""
