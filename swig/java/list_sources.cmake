# Writes the list of .java files in DIR to OUT (one per line), for javac's @file.
file(GLOB sources ${DIR}/*.java)
list(SORT sources)
list(JOIN sources "\n" text)
file(WRITE ${OUT} "${text}\n")
