"""``bansugoroku serve``: the library in the browser and on the network (the
``web`` extra: Starlette and uvicorn).

* :mod:`~bansugoroku_fast.web.fields`: the JSON bodies the calls take, read
  and checked field by field before any work (no Starlette here);
* :mod:`~bansugoroku_fast.web.openapi`: the OpenAPI description of every
  call, served at ``/api/openapi.json``;
* :mod:`~bansugoroku_fast.web.sessions`: the page's sessions, each holding
  one match against the computer and its analyses, reachable only by the
  session's token, expiring when left unused;
* :mod:`~bansugoroku_fast.web.app`: the routes (:func:`~.app.create_app`)
  and the server (:func:`~.app.run_server`);
* ``static/``: the page, plain JavaScript modules and CSS, served from the
  package (no build step, nothing fetched from another host).

The guide ``docs/guides/browser.md`` shows the page; the reference
``docs/reference/web.md`` lists the calls.
"""
