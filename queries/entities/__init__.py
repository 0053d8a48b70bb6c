"""Entity questions answered as answers ("who appears with Pep?") and "similar to X" over entity vectors."""
