# A file that fails while Python runs it (kbench's tests): the error must reach the result's reason.
raise RuntimeError("this module refuses to load")
