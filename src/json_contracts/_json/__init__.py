"""JSON as json-contracts reads and writes it: the bottom layer, standard library plus ``jsonpointer``.

* :mod:`.reading` parses text as JavaScript's ``JSON.parse`` does, with line and column on every
  error, and maps pointers back to positions (``SourceMap``);
* :mod:`.text` writes text as ``JSON.stringify`` does (number format, key order, canonical form);
* :mod:`.pointers` builds, splits and follows RFC 6901 pointers;
* :mod:`.values` names a value's type, measures its depth and says whether an answer can carry it;
* :mod:`.hashing` takes the ``sha256:`` hashes of canonical JSON.
"""
