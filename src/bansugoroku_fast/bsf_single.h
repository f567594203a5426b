/* The Python C API the single-position entry points use beyond Cython's,
 * C for _single.pyx. */
#ifndef BSF_SINGLE_H
#define BSF_SINGLE_H

#include <Python.h>

/* cls() without __init__, through its tp_new slot (no lookup of __new__). */
static PyObject* bsf_new_object(PyObject *cls) {
    PyObject *no_arguments = PyTuple_New(0), *made;
    if (no_arguments == NULL) return NULL;
    made = ((PyTypeObject*) cls)->tp_new((PyTypeObject*) cls, no_arguments, NULL);
    Py_DECREF(no_arguments);
    return made;
}

#endif
