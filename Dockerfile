# syntax=docker/dockerfile:1
# The fabric-twin launcher in a container (docker-compose.yml runs `simulate` and `analyze` from it).

FROM eclipse-temurin:17-jdk AS build
WORKDIR /src
COPY . .
# The Maven repository lives in a BuildKit cache mount, so a rebuild after a source change does not download
# Maven and every dependency again.
RUN --mount=type=cache,target=/root/.m2 \
    ./mvnw -B -ntp -DskipTests -pl cli -am package

FROM eclipse-temurin:17-jre
WORKDIR /app
RUN useradd --system --no-create-home --home-dir /app --shell /usr/sbin/nologin fabric
COPY --from=build /src/cli/target/fabric-twin.jar /app/fabric-twin.jar
COPY scenarios/ /app/scenarios/
USER fabric
# Scenario paths are relative to /app: `simulate --scenario scenarios/pfc-storm-small.yaml ...`
ENTRYPOINT ["java", "-jar", "/app/fabric-twin.jar"]
