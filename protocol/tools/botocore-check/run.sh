#!/bin/sh
# Cross-checks the codec against botocore's own Query serializer/parser and JSON error parser.
# Needs python3 with botocore, the 2012-11-05 Query model below, and `mvn -pl protocol install` done.
# Not part of the Maven build.
set -e
cd "$(dirname "$0")"
M2=${M2:-$HOME/.m2/repository/com/fasterxml/jackson/core}
CP=../../target/classes:$(ls $M2/jackson-databind/2.21.3/*.jar):$(ls $M2/jackson-core/2.21.3/*.jar):$(ls $M2/jackson-annotations/2.21*/*.jar | head -1)
python3 gen_inputs.py          # regenerates src/test/resources/botocore-query-inputs.json
python3 gen_outputs.py         # sample result for every output shape -> results.json
java -cp "$CP" Encode.java     # our XML for each -> xml/*.xml
python3 parse_outputs.py       # botocore's QueryParser must read back exactly the sample
java -cp "$CP" EncodeJson.java > jsonerrors.json
python3 parse_json_errors.py   # botocore's JSON parser must see the Query codes
rm -rf xml results.json jsonerrors.json
