def setup(app):
    return {"version": "1", "parallel_read_safe": True}
