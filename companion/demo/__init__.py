"""`companion demo`: a scripted game filmed by the synthetic camera and played live."""
