"""The JSON API and the game's WebSocket as FastAPI routers, one module per resource: the
games (:mod:`.games`), a seat's view and settings (:mod:`.seats`), playing (:mod:`.play`), the
chat (:mod:`.chat`), the socket (:mod:`.socket`) and the API docs (:mod:`.docs`). The pages,
the end of a game, the host's, the operator's and ``/metrics`` have theirs in
:mod:`meeple.server.pages`, :mod:`~meeple.server.history`, :mod:`~meeple.server.host`,
:mod:`~meeple.server.admin` and :mod:`~meeple.server.metrics`;
:func:`meeple.server.app.create_app` assembles them."""
